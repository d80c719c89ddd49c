namespace OrderDistribution.LoadTool;

/// <summary>An endpoint the user gives: an absolute http(s) URL.</summary>
public static class HttpUrl
{
    public static bool IsValid(string? value) =>
        Uri.TryCreate(value, UriKind.Absolute, out var uri) && uri.Scheme is "http" or "https";

    /// <summary>The URL in <paramref name="value"/>, given as <paramref name="name"/>.</summary>
    /// <exception cref="ArgumentException">It is no absolute http(s) URL; the message names it.</exception>
    public static Uri Parse(string name, string? value) =>
        IsValid(value)
            ? new Uri(value!)
            : throw new ArgumentException($"{name} must be an absolute http(s) URL, not '{value}'.");
}
