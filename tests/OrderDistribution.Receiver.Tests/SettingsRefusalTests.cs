using OrderDistribution.TestSupport;

namespace OrderDistribution.Receiver.Tests;

/// <summary>
/// The receiver started as its own program with each wrong setting it validates (<see cref="RefusedSettings"/>), and
/// with the instance and store rules that span several settings: one line naming the setting, exit code 2, no crash.
/// </summary>
public sealed class SettingsRefusalTests
{
    private static readonly (string Key, string Value)[] Valid =
        [("INSTANCE", "express"), ("Storage:ConnectionString", "UseDevelopmentStorage=true")];

    public static TheoryData<string, string, string> Refused
    {
        get
        {
            var cases = new TheoryData<string, string, string>();
            foreach (var (key, value, named) in RefusedSettings.Of("express"))
            {
                cases.Add(key, value, named);
            }

            cases.Add("INSTANCE", "overnight", "INSTANCE");
            cases.Add("Receiver:Container", "Not_Valid", "Receiver:Container");
            cases.Add("Storage:ConnectionString", "not a connection string", "Storage:ConnectionString");
            cases.Add("Storage:AccountUrl", "https://account.blob.core.windows.net", "Storage:AccountUrl");
            return cases;
        }
    }

    [Theory]
    [MemberData(nameof(Refused))]
    public async Task A_wrong_setting_stops_the_receiver_in_one_line_naming_it_without_a_crash(
        string key, string value, string named)
    {
        var line = await AppRun.RefusalAsync("receiver", [.. Valid.Where(v => v.Key != key), (key, value)]);

        Assert.Contains(named, line, StringComparison.Ordinal);
    }

    [Fact]
    public async Task A_configuration_file_that_is_not_JSON_stops_the_receiver_in_one_line_naming_it_without_a_crash()
    {
        var (file, line) = await AppRun.RefusalOfSettingsFileAsync(
            "receiver", "{ \"Receiver\": { \"Container\": \"outbox\" \"Storage\": {} }", Valid);

        Assert.StartsWith(
            $"OrderDistribution.Receiver cannot start: Failed to load configuration from file '{file}'",
            line, StringComparison.Ordinal);
    }

    [Fact]
    public void The_wrong_settings_cover_every_section_the_receiver_validates()
    {
        var sections = RefusedSettings.SectionsOf("express").Select(s => s.Section).Order();

        Assert.Equal(["Dapr", "Messaging", "Readiness", "Receiver", "Storage", "Telemetry"], sections);
    }
}
