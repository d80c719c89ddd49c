using System.Text.RegularExpressions;

namespace OrderDistribution.Deployment.Tests;

/// <summary>
/// scripts/run-local.sh before it starts the trio: the settings it refuses, the consumers it waits for, a storage
/// that does not start.
/// </summary>
public sealed class RunLocalTests
{
    [RequiresProgramFact("bash", "apt-get install bash")]
    public void Run_local_refuses_an_unknown_model()
    {
        Assert.Equal(2, Repo.Run("bash", "scripts/run-local.sh", "--render-only", "grpc").ExitCode);
        Assert.Equal(2, Repo.Run("bash", "scripts/run-local.sh", "--render-only", "pubsub", "batch").ExitCode);
        Assert.Equal(2, Repo.Run("bash", "scripts/run-local.sh", "--render-only", "pubsub-batch").ExitCode);
    }

    [RequiresProgramTheory("bash", "apt-get install bash")]
    [InlineData("DAPR_GRPC_ENDPOINT", "http://127.0.0.1:50001")]
    [InlineData("DAPR_HTTP_ENDPOINT", "http://127.0.0.1:3500")]
    public void Run_local_refuses_a_sidecar_endpoint_set_in_the_shell_with_one_line(string variable, string value)
    {
        var (exitCode, output) = Repo.Run("env", $"{variable}={value}", "bash", "scripts/run-local.sh", "--render-only",
            "pubsub-bulk");

        Assert.Equal(2, exitCode);
        var line = Assert.Single(output.Split('\n', StringSplitOptions.RemoveEmptyEntries));
        Assert.StartsWith($"{variable} is set in this shell", line, StringComparison.Ordinal);
    }

    [RequiresProgramTheory("bash", "apt-get install bash")]
    [InlineData("0")]
    [InlineData("17")]
    [InlineData("four")]
    [InlineData("4.5")]
    [InlineData("-1")]
    [InlineData("04")]
    public void Run_local_refuses_a_consumer_count_not_a_whole_number_from_1_to_16_with_one_line_and_writes_nothing(
        string consumers)
    {
        var (exitCode, output, wroteFiles) = RenderedBindings.Try(consumers);

        Assert.Equal(2, exitCode);
        var line = Assert.Single(output.Split('\n', StringSplitOptions.RemoveEmptyEntries));
        Assert.Equal($"{RenderedBindings.Setting} must be a whole number from 1 to 16, not '{consumers}'", line);
        Assert.False(wroteFiles, "a run file or components folder was written");
    }

    [RequiresProgramFact("bash", "apt-get install bash")]
    public void Run_local_finds_the_trio_ready_once_every_queue_has_its_consumers_and_every_stream_its_apps_group()
    {
        var fakes = Directory.CreateTempSubdirectory("fake-brokers-");
        try
        {
            // Each queue consumed by the app the code routes it to (the input bindings' scopes), each stream read by
            // the group pubsub.redis names after that app: the script's own list of both must agree.
            new FakeBrokers(fakes.FullName).AllReady(consumers: 4);

            foreach (var model in new[] { "bindings", "pubsub-bulk" })
            {
                var (exitCode, output) = MissingConsumers(fakes.FullName, model, "4");
                Assert.True(exitCode == 0, $"{model}: {output}");
                Assert.Equal("", output);
            }
        }
        finally
        {
            fakes.Delete(recursive: true);
        }
    }

    [RequiresProgramFact("bash", "apt-get install bash")]
    public void Run_local_names_a_queue_short_of_its_consumers_and_the_sidecar_log_of_the_app_consuming_it()
    {
        var fakes = Directory.CreateTempSubdirectory("fake-brokers-");
        try
        {
            new FakeBrokers(fakes.FullName).AllReady(consumers: 4);

            var (exitCode, output) = MissingConsumers(fakes.FullName, "bindings", "5");

            Assert.Equal(1, exitCode);
            var line = Assert.Single(output.Split('\n', StringSplitOptions.RemoveEmptyEntries));
            var match = Regex.Match(line, @"^queue (\S+) has 4 of 5 consumers: read (\S+)$");
            Assert.True(match.Success, line);
            var app = Contract.Bindings.Single(b => b.Direction == "input" && b.Queue == match.Groups[1].Value).AppId;
            var project = Path.GetDirectoryName(Contract.ProjectOfApp[app])!;
            Assert.StartsWith($"{project}/.dapr/logs/{app}_daprd_", match.Groups[2].Value, StringComparison.Ordinal);
        }
        finally
        {
            fakes.Delete(recursive: true);
        }
    }

    private static (int ExitCode, string Output) MissingConsumers(string fakes, string model, string consumers) =>
        Repo.Run("env", $"{RenderedBindings.Setting}={consumers}",
            $"PATH={fakes}{Path.PathSeparator}{Environment.GetEnvironmentVariable("PATH")}",
            "bash", "scripts/run-local.sh", "--missing-consumers", model);

    [RequiresProgramTheory("bash", "apt-get install bash")]
    [InlineData("dapr.yaml", "pubsub-bulk")]
    [InlineData("dapr.bindings.yaml", "bindings")]
    public void Run_local_refuses_an_app_api_token_in_the_run_file_which_daprd_would_never_get(string runFile,
        string model)
    {
        var copy = Directory.CreateTempSubdirectory("run-local-");
        try
        {
            Repo.CopyRunLocal(copy.FullName);
            var withToken = Regex.Replace(Repo.Read(runFile), @"^(\s*)Messaging__Model:.*$",
                "$0\n$1APP_API_TOKEN: secret", RegexOptions.Multiline);
            File.WriteAllText(Path.Combine(copy.FullName, runFile), withToken);

            var (exitCode, output) = Repo.Run("bash", Path.Combine(copy.FullName, "scripts/run-local.sh"),
                "--render-only", model);

            Assert.Equal(2, exitCode);
            var line = Assert.Single(output.Split('\n', StringSplitOptions.RemoveEmptyEntries));
            Assert.Contains("sets APP_API_TOKEN in an app's env", line, StringComparison.Ordinal);
            Assert.False(Directory.Exists(Path.Combine(copy.FullName, ".dapr")), "a run file was written");
        }
        finally
        {
            copy.Delete(recursive: true);
        }
    }

    [RequiresProgramFact("bash", "apt-get install bash")]
    public void Run_local_stops_at_once_naming_azurites_last_line_when_azurite_exits_at_start()
    {
        var copy = Directory.CreateTempSubdirectory("run-local-");
        try
        {
            Repo.CopyRunLocal(copy.FullName);
            var azurite = Path.Combine(copy.FullName, ".tools/node_modules/.bin/azurite");
            Directory.CreateDirectory(Path.GetDirectoryName(azurite)!);
            File.WriteAllText(azurite,
                "#!/bin/sh\necho 'Exit due to unhandled error: listen EADDRINUSE: address already in use'\nexit 1\n");
            Assert.Equal(0, Repo.Run("chmod", "+x", azurite).ExitCode);

            var (exitCode, output) = Repo.Run("env", "AZURITE_BLOB_PORT=1", "AZURITE_QUEUE_PORT=2",
                "bash", Path.Combine(copy.FullName, "scripts/run-local.sh"), "--storage-only");

            Assert.Equal(1, exitCode);
            Assert.Contains("Azurite did not start: Exit due to unhandled error: listen EADDRINUSE", output,
                StringComparison.Ordinal);
            Assert.DoesNotContain("Azurite: started", output, StringComparison.Ordinal);
        }
        finally
        {
            copy.Delete(recursive: true);
        }
    }
}
