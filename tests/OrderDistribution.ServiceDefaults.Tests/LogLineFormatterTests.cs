using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Logging;
using Microsoft.Extensions.Logging.Abstractions;
using Microsoft.Extensions.Logging.Console;
using Microsoft.Extensions.Options;

namespace OrderDistribution.ServiceDefaults.Tests;

/// <summary>
/// Text from the wire never starts a console line of its own: <see cref="LogText"/> escapes every line break and
/// control character, and the console's formatter applies it to each message and each exception message.
/// </summary>
public sealed class LogLineFormatterTests
{
    private static readonly char[] LineEnds = ['\n', '\r', '\u0085', '\u2028', '\u2029'];

    [Theory]
    [InlineData("a\nb", @"a\nb")]
    [InlineData("a\rb", @"a\rb")]
    [InlineData("a\r\nb", @"a\r\nb")]
    [InlineData("a\tb", @"a\tb")]
    [InlineData("\u0000x\u001f", @"\u0000x\u001f")]
    [InlineData("\u001b[2K\rforged", @"\u001b[2K\rforged")]
    [InlineData("del\u007f", @"del\u007f")]
    [InlineData("nel\u0085c1\u009f", @"nel\u0085c1\u009f")]
    [InlineData("ls\u2028ps\u2029", @"ls\u2028ps\u2029")]
    [InlineData("kept as is: \u00a0\u00e9\u20ac \" \\", "kept as is: \u00a0\u00e9\u20ac \" \\")]
    public void Every_line_break_and_control_character_is_escaped_and_nothing_else(string text, string escaped) =>
        Assert.Equal(escaped, LogText.Escape(text));

    [Fact]
    public void Text_with_nothing_to_escape_is_returned_as_it_is() =>
        Assert.Same("order 42 stored", LogText.Escape("order 42 stored"));

    [Fact]
    public void A_message_and_every_exception_message_in_the_chain_stay_on_their_own_lines()
    {
        using var services = ConfiguredServices();
        var formatter = Formatter(services);
        var inner = new InvalidOperationException("inner\rcrit: FORGED 2");
        var failure = new AggregateException("outer\ncrit: FORGED 1",
            new IOException("wrapped\u2028crit: FORGED 3", inner), new TimeoutException("late\u0085crit: FORGED 4"));
        using var output = new StringWriter();

        formatter.Write(
            new LogEntry<string>(LogLevel.Warning, "Test", 0, "order x\ncrit: FORGED 0", failure, (m, _) => m),
            null, output);

        var text = output.ToString();
        Assert.DoesNotContain(text.Split(LineEnds),
            line => line.TrimStart().StartsWith("crit", StringComparison.Ordinal));
        Assert.Contains(@"order x\ncrit: FORGED 0", text, StringComparison.Ordinal);
        Assert.Contains(@"inner\rcrit: FORGED 2", text, StringComparison.Ordinal);
        Assert.Contains(@"wrapped\u2028crit: FORGED 3", text, StringComparison.Ordinal);
        Assert.Contains(@"late\u0085crit: FORGED 4", text, StringComparison.Ordinal);
        Assert.Contains("System.InvalidOperationException", text, StringComparison.Ordinal);
        Assert.StartsWith("warn: Test[0]", text, StringComparison.Ordinal);
    }

    [Fact]
    public void A_message_without_an_exception_is_written_alone_in_the_simple_formatters_layout()
    {
        using var services = ConfiguredServices();
        using var output = new StringWriter();

        Formatter(services).Write(
            new LogEntry<string>(LogLevel.Information, "Test", 0, "stored", null, (m, _) => m), null, output);

        Assert.Equal($"info: Test[0]{Environment.NewLine}      stored{Environment.NewLine}", output.ToString());
    }

    [Theory]
    [InlineData(null, LogLineFormatter.FormatterName)]
    [InlineData(ConsoleFormatterNames.Simple, LogLineFormatter.FormatterName)]
    [InlineData(ConsoleFormatterNames.Json, ConsoleFormatterNames.Json)]
    [InlineData(ConsoleFormatterNames.Systemd, ConsoleFormatterNames.Systemd)]
    public void The_escaped_formatter_takes_the_simple_ones_place_and_a_chosen_other_one_is_kept(string? chosen,
        string used)
    {
        using var services = ConfiguredServices(chosen);

        Assert.Equal(used, services.GetRequiredService<IOptions<ConsoleLoggerOptions>>().Value.FormatterName);
    }

    private static ServiceProvider ConfiguredServices(string? formatter = null) =>
        new ServiceCollection()
            .Configure<SimpleConsoleFormatterOptions>(options => options.ColorBehavior = LoggerColorBehavior.Disabled)
            .AddLogging(logging => logging
                .AddConsole(options => options.FormatterName = formatter)
                .AddEscapedConsole())
            .BuildServiceProvider();

    private static ConsoleFormatter Formatter(IServiceProvider services) =>
        services.GetServices<ConsoleFormatter>().Single(f => f.Name == LogLineFormatter.FormatterName);
}
