using Microsoft.Extensions.Logging;

namespace OrderDistribution.TestSupport;

public sealed record LoggedLine(LogLevel Level, string Category, string Message, Exception? Exception);
