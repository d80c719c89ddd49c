namespace OrderDistribution.Deployment.Tests;

public class ScriptTests
{
    private static IEnumerable<string> ShellScripts() =>
        Directory.GetFiles(Repo.PathOf("scripts"), "*.sh").Order(StringComparer.Ordinal);

    [RequiresProgramFact("bash", "apt-get install bash")]
    public void Every_shell_script_parses()
    {
        foreach (var script in ShellScripts())
        {
            var shell = File.ReadLines(script).First().Contains("bash", StringComparison.Ordinal) ? "bash" : "sh";
            var (exitCode, output) = Repo.Run(shell, "-n", script);
            Assert.True(exitCode == 0, $"{Path.GetFileName(script)}: {output}");
        }
    }

    [UnixFact]
    public void Every_script_is_executable_and_starts_with_a_shebang()
    {
        if (OperatingSystem.IsWindows())
        {
            return; // never reached: UnixFact skips on Windows
        }

        foreach (var script in ShellScripts().Append(Repo.PathOf("scripts/kql-check.js")))
        {
            Assert.StartsWith("#!", File.ReadLines(script).First(), StringComparison.Ordinal);
            Assert.True(File.GetUnixFileMode(script).HasFlag(UnixFileMode.UserExecute), $"{Path.GetFileName(script)} is not executable");
        }
    }

    [RequiresProgramFact("bash", "apt-get install bash")]
    public void Run_local_refuses_an_unknown_model_or_mode()
    {
        Assert.Equal(2, Repo.Run("bash", "scripts/run-local.sh", "--render-only", "grpc", "bulk").ExitCode);
        Assert.Equal(2, Repo.Run("bash", "scripts/run-local.sh", "--render-only", "pubsub", "batch").ExitCode);
    }

    [RequiresProgramFact("bash", "apt-get install bash")]
    public void The_azure_burst_sidecar_publishes_to_the_service_bus_ingress_queue_as_the_apps_pubsub_signed_in_without_secrets()
    {
        var (exitCode, output) = Repo.Run("env", "SERVICEBUS_NAMESPACE_FQDN=sb-test.servicebus.windows.net",
            "STORAGE_BLOB_ENDPOINT=https://sttest.blob.core.windows.net/", "bash", "scripts/azure-burst.sh", "--render-only");
        Assert.True(exitCode == 0, output);

        var component = Assert.Single(DaprComponent.LoadFolder(".dapr/azure-load"));
        Assert.Equal(AppSettings.Load("src/OrderDistribution.Distributor/appsettings.json").Required("Messaging:PubSubName"), component.Name);
        Assert.Equal("pubsub.azure.servicebus.queues", component.Type);
        Assert.Equal("sb-test.servicebus.windows.net", component["namespaceName"]);
        Assert.Equal("true", component["disableEntityManagement"]);
        Assert.Null(component["connectionString"]);
        Assert.Equal(["order-load"], component.Scopes);
    }
}
