using System.Globalization;
using System.Text;

namespace OrderDistribution.Messaging.Inbound;

/// <summary>Text from the wire (an entry id, a service's error) made safe to log: it cannot break the line it is in.</summary>
public static class WireText
{
    /// <returns>The text with every control character (line breaks among them) written as <c>\uXXXX</c>.</returns>
    public static string OnOneLine(string text)
    {
        if (!text.AsSpan().ContainsAnyInRange('\0', '\x1f') && !text.Contains('\x7f', StringComparison.Ordinal))
        {
            return text;
        }

        var escaped = new StringBuilder(text.Length + 16);
        foreach (var c in text)
        {
            _ = char.IsControl(c) ? escaped.Append(CultureInfo.InvariantCulture, $"\\u{(int)c:x4}") : escaped.Append(c);
        }

        return escaped.ToString();
    }
}
