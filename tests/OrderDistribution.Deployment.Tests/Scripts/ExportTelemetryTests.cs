namespace OrderDistribution.Deployment.Tests;

/// <summary>
/// scripts/export-telemetry.sh with a fake az: a burst's rows written in the shape the KQL tests read.
/// </summary>
public sealed class ExportTelemetryTests
{
    [RequiresProgramFact("jq", "apt-get install jq")]
    public void The_telemetry_export_writes_a_bursts_real_rows_in_the_shape_of_the_hand_written_sample()
    {
        using var azure = new FakeAzure();
        azure.Respond("customEvents | where", """
            {"tables":[{"name":"PrimaryResult",
              "columns":[{"name":"cloud_RoleName","type":"string"},{"name":"name","type":"string"},
                         {"name":"timestamp","type":"datetime"},{"name":"customMeasurements","type":"dynamic"}],
              "rows":[["receiver-express","OrdersStored","2026-11-20T10:00:06.42Z","{\"StoredCount\":250}"]]}]}
            """.Trim());
        var file = Path.Combine(azure.Folder, "recorded.json");

        var (exitCode, output) = azure.Run("bash", "scripts/export-telemetry.sh", "--start", "2026-11-20T09:59:00Z",
            "--end", "2026-11-20T10:05:00Z", "--out", file);

        Assert.True(exitCode == 0, output);
        var sample = System.Text.Json.Nodes.JsonNode.Parse(File.ReadAllText(file))!;
        Assert.StartsWith("RECORDED by scripts/export-telemetry.sh", sample["about"]!.GetValue<string>(),
            StringComparison.Ordinal);
        var stored = Assert.Single(sample["customEvents"]!.AsArray())!;
        Assert.Equal("receiver-express", stored["cloud_RoleName"]!.GetValue<string>());
        // A dynamic column is an object, as in the sample the tests read, not JSON text.
        Assert.Equal(250, stored["customMeasurements"]!["StoredCount"]!.GetValue<int>());
        foreach (var table in new[] { "requests", "traces", "dependencies", "ContainerAppConsoleLogs" })
        {
            Assert.Empty(sample[table]!.AsArray());
        }

        Assert.All(azure.Calls.Where(c => c.Contains(" query ", StringComparison.Ordinal)),
            call => Assert.Contains($"--subscription {FakeAzure.Subscription} ", call, StringComparison.Ordinal));
    }
}
