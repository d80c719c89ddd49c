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
        using var config = JsonDocument.Parse(
            File.ReadAllText(Path.Combine(AppContext.BaseDirectory, $"{app}.runtimeconfig.json")));

        var properties = config.RootElement.GetProperty("runtimeOptions").GetProperty("configProperties");

        Assert.False(properties.GetProperty("System.Runtime.TieredPGO").GetBoolean());
    }

    [Theory]
    [InlineData("OrderDistribution.Distributor", "RuntimeIdentifier=linux-x64")] // the container images
    [InlineData("OrderDistribution.Receiver", "RuntimeIdentifier=linux-x64")]
    [InlineData("OrderDistribution.Distributor", "UseCurrentRuntimeIdentifier=true")] // scripts/run-local.sh
    [InlineData("OrderDistribution.Receiver", "UseCurrentRuntimeIdentifier=true")]
    public void Published_as_the_images_and_the_local_run_are_the_apps_run_ahead_of_time_code_without_a_jit_pass(
        string app, string publishedFor)
    {
        var (exitCode, output) = Repo.Run("dotnet", "msbuild", $"src/{app}/{app}.csproj", $"-p:{publishedFor}",
            "-getProperty:PublishReadyToRun", "-getProperty:TieredCompilation");
        Assert.True(exitCode == 0, output);
        using var evaluated = JsonDocument.Parse(output);

        var properties = evaluated.RootElement.GetProperty("Properties");

        Assert.Equal("true", properties.GetProperty("PublishReadyToRun").GetString());
        Assert.Equal("false", properties.GetProperty("TieredCompilation").GetString());
    }

    [RequiresBicepFact]
    public void In_Azure_the_apps_run_as_the_images_are_built_unless_tiered_compilation_is_turned_on()
    {
        Assert.False(BicepCompiler.Main["parameters"]!["tieredCompilation"]!["defaultValue"]!.GetValue<bool>());
        Assert.Equal(3, InfraSnapshot.Default.ContainerApps.Count);
        Assert.All(InfraSnapshot.Default.ContainerApps, app => Assert.Equal("0", app.Env["DOTNET_TieredCompilation"]));
        Assert.All(InfraSnapshot.Of(("tieredCompilation", true)).ContainerApps,
            app => Assert.Equal("1", app.Env["DOTNET_TieredCompilation"]));
    }

    [RequiresBicepFact]
    public void In_Azure_the_apps_send_every_request_unless_a_sampling_percentage_is_set()
    {
        Assert.Equal(100,
            BicepCompiler.Main["parameters"]!["requestSamplingPercentage"]!["defaultValue"]!.GetValue<int>());
        Assert.Equal(3, InfraSnapshot.Default.ContainerApps.Count);
        Assert.All(InfraSnapshot.Default.ContainerApps,
            app => Assert.Equal("100", app.Env["Telemetry__RequestSamplingPercentage"]));
        Assert.All(InfraSnapshot.Of(("requestSamplingPercentage", 10)).ContainerApps,
            app => Assert.Equal("10", app.Env["Telemetry__RequestSamplingPercentage"]));
        // Each allowed value is one the apps take (TelemetryOptions: 100 divided by a whole number).
        Assert.All(BicepCompiler.Main["parameters"]!["requestSamplingPercentage"]!["allowedValues"]!.AsArray(),
            value => Assert.Empty(new OrderDistribution.ServiceDefaults.TelemetryOptions
            {
                RequestSamplingPercentage = value!.GetValue<int>(),
            }.Validate(new System.ComponentModel.DataAnnotations.ValidationContext(new object()))));
    }
}
