using System.Text.Json;

namespace OrderDistribution.Deployment.Tests;

public class RuntimeSettingsTests
{
    [Theory]
    [InlineData("OrderDistribution.Distributor")]
    [InlineData("OrderDistribution.Receiver")]
    public void The_apps_run_without_dynamic_PGO_whose_first_code_and_recompiles_cost_every_first_burst(string app)
    {
        // The build writes each app's runtime settings beside it; this project references both apps.
        using var config = JsonDocument.Parse(File.ReadAllText(Path.Combine(AppContext.BaseDirectory, $"{app}.runtimeconfig.json")));

        var properties = config.RootElement.GetProperty("runtimeOptions").GetProperty("configProperties");

        Assert.False(properties.GetProperty("System.Runtime.TieredPGO").GetBoolean());
    }
}
