namespace OrderDistribution.LoadTool;

/// <summary>Words for the causes of failed calls, short enough for one line.</summary>
public static class FailureText
{
    /// <summary>
    /// The innermost useful reason: "Connection refused (127.0.0.1:10000)", "no answer in time", …
    /// </summary>
    public static string Reason(Exception exception)
    {
        for (var e = exception; e is not null; e = e.InnerException)
        {
            switch (e)
            {
                case System.Net.Sockets.SocketException socket:
                    return socket.Message;
                case TimeoutException or Polly.Timeout.TimeoutRejectedException or TaskCanceledException:
                    return "no answer in time";
            }
        }

        var innermost = exception;
        while (innermost.InnerException is not null)
        {
            innermost = innermost.InnerException;
        }

        return FirstLine(innermost.Message);
    }

    public static string FirstLine(string text)
    {
        var line = text.AsSpan().Trim();
        var end = line.IndexOfAny('\r', '\n');
        return (end < 0 ? line : line[..end]).TrimEnd('.').ToString();
    }
}
