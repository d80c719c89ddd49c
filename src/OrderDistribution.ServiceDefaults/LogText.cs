using System.Buffers;
using System.Globalization;
using System.Text;

namespace OrderDistribution.ServiceDefaults;

/// <summary>
/// Text that may come from the wire (ids, types, a sidecar's error), made safe for a log line: every control character
/// (C0, DEL, C1) and the Unicode line and paragraph separators are escaped, so that such text can neither start a line
/// of its own nor move the cursor. The console formatter applies it to every message (<see cref="LogLineFormatter"/>).
/// </summary>
public static class LogText
{
    /// <summary>
    /// C0, DEL and C1 (what <see cref="char.IsControl(char)"/> says), and the line and paragraph separators.
    /// </summary>
    private static readonly SearchValues<char> Unsafe = SearchValues.Create(
        [.. Enumerable.Range(0, 0x20).Select(i => (char)i), .. Enumerable.Range(0x7f, 0x21).Select(i => (char)i),
            '\u2028', '\u2029']);

    public static string Escape(string text)
    {
        var first = text.AsSpan().IndexOfAny(Unsafe);
        if (first < 0)
        {
            return text;
        }

        var escaped = new StringBuilder(text.Length + 16).Append(text, 0, first);
        foreach (var c in text.AsSpan(first))
        {
            _ = c switch
            {
                '\n' => escaped.Append("\\n"),
                '\r' => escaped.Append("\\r"),
                '\t' => escaped.Append("\\t"),
                _ when IsUnsafe(c) =>
                    escaped.Append("\\u").Append(((int)c).ToString("x4", CultureInfo.InvariantCulture)),
                _ => escaped.Append(c),
            };
        }

        return escaped.ToString();
    }

    private static bool IsUnsafe(char c) => char.IsControl(c) || c is '\u2028' or '\u2029';
}
