using OrderDistribution.TestSupport;

namespace OrderDistribution.Distributor.Tests;

/// <summary>
/// The distributor started as its own program with each wrong setting it validates (<see cref="RefusedSettings"/>):
/// one line naming the setting, exit code 2, no crash.
/// </summary>
public sealed class SettingsRefusalTests
{
    public static TheoryData<string, string, string> Refused
    {
        get
        {
            var cases = new TheoryData<string, string, string>();
            foreach (var (key, value, named) in RefusedSettings.Of(AppHost.Distributor))
            {
                cases.Add(key, value, named);
            }

            // Where the sidecar is: the SDK's own variables, read at start.
            cases.Add("DAPR_HTTP_PORT", "http", "DAPR_HTTP_PORT");
            cases.Add("DAPR_GRPC_ENDPOINT", "ftp://127.0.0.1:50001", "DAPR_GRPC_ENDPOINT");
            // A number, but not a share Application Insights samples at: the rule, not the conversion, refuses it.
            cases.Add("Telemetry:RequestSamplingPercentage", "30", "Telemetry:RequestSamplingPercentage");
            // Each within its range, but bulks of 250 such messages would be larger than the app can read.
            cases.Add("Messaging:MaxMessageBytes", "104857600", "Messaging:MaxMessagesCount (250) bulks of");
            return cases;
        }
    }

    [Theory]
    [MemberData(nameof(Refused))]
    public async Task A_wrong_setting_stops_the_distributor_in_one_line_naming_it_without_a_crash(string key,
        string value, string named)
    {
        var line = await AppRun.RefusalAsync("distributor", (key, value));

        Assert.Contains(named, line, StringComparison.Ordinal);
    }

    [Fact]
    public void The_wrong_settings_cover_every_section_the_distributor_validates()
    {
        var sections = RefusedSettings.SectionsOf(AppHost.Distributor).Select(s => s.Section).Order();

        Assert.Equal(["Dapr", "Distributor", "Messaging", "Readiness", "Telemetry"], sections);
    }

    [Fact]
    public async Task A_configuration_file_not_JSON_stops_the_distributor_in_one_line_naming_the_file_without_a_crash()
    {
        var (file, line) = await AppRun.RefusalOfSettingsFileAsync(
            "distributor", "{ \"Messaging\": { \"Model\": \"pubsub-bulk\" } \"Readiness\": {} }");

        Assert.StartsWith(
            $"OrderDistribution.Distributor cannot start: Failed to load configuration from file '{file}'",
            line, StringComparison.Ordinal);
        // Where the comma is missing: before "Readiness", the 43rd byte of the first line (from 0).
        Assert.Contains("LineNumber: 0 | BytePositionInLine: 42", line, StringComparison.Ordinal);
    }

    [Fact]
    public async Task With_debug_logging_the_refusal_is_followed_by_its_stack()
    {
        await using var run = AppRun.Start("distributor",
            [("Messaging:Model", "foo"), ("Logging:LogLevel:Default", "Debug")]);

        var (exitCode, _, errors) = await run.ExitAsync(TimeSpan.FromSeconds(60));

        Assert.Equal(2, exitCode);
        Assert.StartsWith("OrderDistribution.Distributor cannot start: Messaging:Model: 'foo' is not a messaging model",
            errors, StringComparison.Ordinal);
        Assert.Contains("   at ", errors, StringComparison.Ordinal);
    }
}
