using System.Runtime.Versioning;
using System.Text.RegularExpressions;

namespace OrderDistribution.Deployment.Tests;

public class ScriptTests
{
    /// <summary>scripts/*.sh and the CI entry point, .ci/run.</summary>
    private static IEnumerable<string> ShellScripts() =>
        Directory.GetFiles(Repo.PathOf("scripts"), "*.sh").Order(StringComparer.Ordinal).Append(Repo.PathOf(".ci/run"));

    /// <summary>The functions the scripts share, scripts/lib/*.sh, sourced and never run on their own.</summary>
    private static IEnumerable<string> SharedFunctions() =>
        Directory.GetFiles(Repo.PathOf("scripts/lib"), "*.sh").Order(StringComparer.Ordinal);

    private static IEnumerable<string> EveryShellFile() => ShellScripts().Concat(SharedFunctions());

    [RequiresProgramFact("bash", "apt-get install bash")]
    public void Every_script_with_help_prints_its_usage_and_runs_nothing_else()
    {
        // PATH holds sed alone: a script that ran anything else before it printed its usage (dirname, npm, dotnet,
        // apt-get...) would say "command not found".
        var onlySed = Directory.CreateTempSubdirectory("only-sed-");
        try
        {
            File.CreateSymbolicLink(Path.Combine(onlySed.FullName, "sed"), Repo.FindOnPath("sed")!);
            foreach (var script in ShellScripts())
            {
                var (exitCode, output) = Repo.Run("/usr/bin/env", "-i", $"PATH={onlySed.FullName}", Repo.FindOnPath("bash")!, script, "--help");

                var name = Path.GetRelativePath(Repo.Root, script);
                Assert.True(exitCode == 0, $"{name} --help exited {exitCode}: {output}");
                Assert.DoesNotContain("not found", output, StringComparison.Ordinal);
                Assert.Contains("Usage:", output, StringComparison.Ordinal);
                Assert.DoesNotContain("\n#", output, StringComparison.Ordinal);
            }
        }
        finally
        {
            onlySed.Delete(recursive: true);
        }
    }

    [RequiresProgramFact("bash", "apt-get install bash")]
    public void Every_shell_script_parses()
    {
        foreach (var script in EveryShellFile())
        {
            var shell = File.ReadLines(script).First().Contains("bash", StringComparison.Ordinal) ? "bash" : "sh";
            var (exitCode, output) = Repo.Run(shell, "-n", script);
            Assert.True(exitCode == 0, $"{Path.GetFileName(script)}: {output}");
        }
    }

    [Fact]
    [UnsupportedOSPlatform("windows")]
    public void Every_script_is_executable_and_starts_with_a_shebang()
    {
        if (OperatingSystem.IsWindows())
        {
            Assert.Skip("file modes exist on Unix only");
        }

        foreach (var script in ShellScripts().Append(Repo.PathOf("scripts/kql-check.js")))
        {
            Assert.StartsWith("#!", File.ReadLines(script).First(), StringComparison.Ordinal);
            Assert.True(File.GetUnixFileMode(script).HasFlag(UnixFileMode.UserExecute), $"{Path.GetFileName(script)} is not executable");
        }
    }

    [Fact]
    public void Every_shared_function_file_is_sourced_by_a_script_and_names_its_shell_for_shellcheck()
    {
        var scripts = ShellScripts().Select(File.ReadAllText).ToList();
        foreach (var file in SharedFunctions())
        {
            var name = Path.GetFileName(file);
            Assert.Equal("# shellcheck shell=bash", File.ReadLines(file).First());
            Assert.True(scripts.Any(script => script.Contains($". \"$ROOT/scripts/lib/{name}\"", StringComparison.Ordinal)),
                $"scripts/lib/{name} is sourced by no script");
        }
    }

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
        var (exitCode, output) = Repo.Run("env", $"{variable}={value}", "bash", "scripts/run-local.sh", "--render-only", "pubsub-bulk");

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
    public void Run_local_refuses_a_consumer_count_that_is_not_a_whole_number_from_1_to_16_with_one_line_and_writes_nothing(string consumers)
    {
        var (exitCode, output, wroteFiles) = RenderedBindings.Try(consumers);

        Assert.Equal(2, exitCode);
        var line = Assert.Single(output.Split('\n', StringSplitOptions.RemoveEmptyEntries));
        Assert.Equal($"{RenderedBindings.Setting} must be a whole number from 1 to 16, not '{consumers}'", line);
        Assert.False(wroteFiles, "a run file or components folder was written");
    }

    [RequiresProgramFact("bash", "apt-get install bash")]
    public void Run_local_finds_the_trio_able_to_consume_once_every_queue_has_its_consumers_and_every_stream_its_apps_group()
    {
        var fakes = Directory.CreateTempSubdirectory("fake-brokers-");
        try
        {
            // Each queue consumed by the app the code routes it to (the input bindings' scopes), each stream read by the
            // group pubsub.redis names after that app: the script's own list of both must agree.
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
    public void Run_local_names_a_queue_short_of_its_configured_consumers_and_the_sidecar_log_of_the_app_that_consumes_it()
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
        Repo.Run("env", $"{RenderedBindings.Setting}={consumers}", $"PATH={fakes}{Path.PathSeparator}{Environment.GetEnvironmentVariable("PATH")}",
            "bash", "scripts/run-local.sh", "--missing-consumers", model);

    [RequiresProgramTheory("bash", "apt-get install bash")]
    [InlineData("dapr.yaml", "pubsub-bulk")]
    [InlineData("dapr.bindings.yaml", "bindings")]
    public void Run_local_refuses_an_app_api_token_in_the_run_file_which_daprd_would_never_get(string runFile, string model)
    {
        var copy = Directory.CreateTempSubdirectory("run-local-");
        try
        {
            Repo.CopyRunLocal(copy.FullName);
            var withToken = Regex.Replace(Repo.Read(runFile), @"^(\s*)Messaging__Model:.*$", "$0\n$1APP_API_TOKEN: secret", RegexOptions.Multiline);
            File.WriteAllText(Path.Combine(copy.FullName, runFile), withToken);

            var (exitCode, output) = Repo.Run("bash", Path.Combine(copy.FullName, "scripts/run-local.sh"), "--render-only", model);

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
            File.WriteAllText(azurite, "#!/bin/sh\necho 'Exit due to unhandled error: listen EADDRINUSE: address already in use'\nexit 1\n");
            Assert.Equal(0, Repo.Run("chmod", "+x", azurite).ExitCode);

            var (exitCode, output) = Repo.Run("env", "AZURITE_BLOB_PORT=1", "AZURITE_QUEUE_PORT=2",
                "bash", Path.Combine(copy.FullName, "scripts/run-local.sh"), "--storage-only");

            Assert.Equal(1, exitCode);
            Assert.Contains("Azurite did not start: Exit due to unhandled error: listen EADDRINUSE", output, StringComparison.Ordinal);
            Assert.DoesNotContain("Azurite: started", output, StringComparison.Ordinal);
        }
        finally
        {
            copy.Delete(recursive: true);
        }
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

    [RequiresProgramFact("shellcheck", "apt-get install shellcheck")]
    public void Every_shell_script_passes_shellcheck()
    {
        var failures = new List<string>();
        foreach (var script in EveryShellFile())
        {
            var (exitCode, output) = Repo.Run("shellcheck", Path.GetRelativePath(Repo.Root, script));
            if (exitCode != 0)
            {
                failures.Add(output);
            }
        }

        Assert.True(failures.Count == 0, string.Join('\n', failures));
    }

    [Fact]
    public void No_bash_script_uses_a_construct_that_macos_bash_3_2_lacks()
    {
        // Case conversion, associative arrays, mapfile/readarray, namerefs, &>> and |& came with bash 4.
        var bash4 = new Regex(@"\$\{[A-Za-z_][A-Za-z_0-9]*(\^\^?|,,?)[^}]*\}|\bmapfile\b|\breadarray\b|\bdeclare\s+-[A-Za-z]*[An]|\blocal\s+-n\b|&>>|\|&|\bwait\s+-n\b");
        foreach (var script in EveryShellFile().Where(s => File.ReadLines(s).First().Contains("bash", StringComparison.Ordinal)))
        {
            var lines = File.ReadAllLines(script);
            for (var i = 0; i < lines.Length; i++)
            {
                if (!lines[i].TrimStart().StartsWith('#'))
                {
                    Assert.False(bash4.IsMatch(lines[i]), $"{Path.GetFileName(script)}:{i + 1} needs bash 4: {lines[i].Trim()}");
                }
            }
        }
    }

    [RequiresProgramFact("bash", "apt-get install bash")]
    public void The_azure_burst_sidecar_leaves_the_byte_budget_to_each_bulk_publish_request()
    {
        var (exitCode, output) = Repo.Run("env", "SERVICEBUS_NAMESPACE_FQDN=sb-test.servicebus.windows.net",
            "STORAGE_BLOB_ENDPOINT=https://sttest.blob.core.windows.net/", "bash", "scripts/azure-burst.sh", "--render-only");
        Assert.True(exitCode == 0, output);

        // A component-level maxBulkPubBytes is ignored; the load tool sends --max-bulk-bytes with each request.
        Assert.Null(Assert.Single(DaprComponent.LoadFolder(".dapr/azure-load"))["maxBulkPubBytes"]);
        Assert.Contains("--max-bulk-bytes \"$MAX_BULK_PUBLISH_BYTES\"", Repo.Read("scripts/azure-burst.sh"), StringComparison.Ordinal);
    }

    [RequiresProgramFact("bash", "apt-get install bash")]
    public void The_azure_burst_reports_each_queues_dead_letter_count_from_the_deployed_subscription()
    {
        using var azure = new FakeAzure();
        azure.Respond("q-order-ingress", "0").Respond("q-order-express", "3").Respond("q-order-standard", "2");

        var (exitCode, output) = azure.Run("bash", "scripts/azure-burst.sh", "--dead-letters-only");

        Assert.True(exitCode == 0, output);
        Assert.Contains("dead-lettered: q-order-ingress 0", output, StringComparison.Ordinal);
        Assert.Contains("dead-lettered: q-order-express 3", output, StringComparison.Ordinal);
        Assert.Contains("dead-lettered: q-order-standard 2", output, StringComparison.Ordinal);
        Assert.Contains("dead-lettered in this burst: 5", output, StringComparison.Ordinal);
        var calls = azure.Calls.Where(c => c.StartsWith("servicebus queue show", StringComparison.Ordinal)).ToList();
        Assert.Equal(3, calls.Count);
        Assert.All(calls, call =>
        {
            Assert.Contains($"--subscription {FakeAzure.Subscription}", call, StringComparison.Ordinal);
            Assert.Contains("--namespace-name sb-fake", call, StringComparison.Ordinal);
            Assert.Contains("--query [countDetails.deadLetterMessageCount]", call, StringComparison.Ordinal);
        });
    }

    [RequiresProgramFact("bash", "apt-get install bash")]
    public void The_azure_burst_counts_scheduled_messages_as_still_on_the_queues_while_draining()
    {
        using var azure = new FakeAzure();
        // No active message anywhere, but 5 scheduled on each queue: a burst not yet visible is not drained.
        azure.Respond("activeMessageCount", "0\t5").Respond("deadLetterMessageCount", "0");

        var (exitCode, output) = azure.Run("bash", "scripts/azure-burst.sh", "--drain-only", "--drain-timeout", "0");

        Assert.Equal(1, exitCode);
        Assert.Contains("still on the queues after 0 s: 15 messages (active and scheduled)", output, StringComparison.Ordinal);
        Assert.Contains("dead-lettered in this burst: 0", output, StringComparison.Ordinal);
        Assert.All(azure.Calls.Where(c => c.Contains("activeMessageCount", StringComparison.Ordinal)), call =>
            Assert.Contains("--query [countDetails.activeMessageCount,countDetails.scheduledMessageCount]", call, StringComparison.Ordinal));
    }

    [RequiresProgramFact("bash", "apt-get install bash")]
    public void The_azure_burst_reports_an_az_failure_while_draining_and_still_prints_the_dead_letter_report()
    {
        using var azure = new FakeAzure();
        azure.Fail("activeMessageCount", "(AuthorizationFailed) no read access to the namespace").Respond("deadLetterMessageCount", "2");

        var (exitCode, output) = azure.Run("bash", "scripts/azure-burst.sh", "--drain-only", "--drain-timeout", "0");

        Assert.Equal(1, exitCode);
        Assert.Contains("az could not read q-order-ingress: ERROR: (AuthorizationFailed) no read access to the namespace", output, StringComparison.Ordinal);
        Assert.Contains("could not read q-order-ingress q-order-express q-order-standard", output, StringComparison.Ordinal);
        Assert.Contains("dead-lettered: q-order-standard 2 (now 2 in its dead-letter queue)", output, StringComparison.Ordinal);
        Assert.Contains("dead-lettered in this burst: 6", output, StringComparison.Ordinal);
    }

    [RequiresProgramFact("bash", "apt-get install bash")]
    public void The_azure_burst_reports_a_queue_whose_dead_letters_az_cannot_read_and_goes_on_with_the_others()
    {
        using var azure = new FakeAzure();
        azure.Fail("--name q-order-express --query [countDetails.deadLetterMessageCount]", "(ResourceNotFound) queue not found")
            .Respond("deadLetterMessageCount", "1");

        var (exitCode, output) = azure.Run("bash", "scripts/azure-burst.sh", "--dead-letters-only");

        Assert.Equal(1, exitCode);
        Assert.Contains("dead-lettered: q-order-express unknown (az failed, see above)", output, StringComparison.Ordinal);
        Assert.Contains("dead-lettered: q-order-standard 1 (now 1 in its dead-letter queue)", output, StringComparison.Ordinal);
        Assert.Contains("dead-lettered in this burst: 2 (and the queues az could not read)", output, StringComparison.Ordinal);
    }

    [RequiresProgramFact("bash", "apt-get install bash")]
    public void The_azure_burst_refuses_a_count_that_is_not_a_number()
    {
        using var azure = new FakeAzure();
        var (exitCode, output) = azure.Run("bash", "scripts/azure-burst.sh", "--count", "ten", "--dead-letters-only");
        Assert.Equal(2, exitCode);
        Assert.Contains("not a number: ten", output, StringComparison.Ordinal);
    }

    [RequiresProgramFact("bash", "apt-get install bash")]
    public void Query_kql_names_the_deployed_subscription_unless_told_another()
    {
        using var azure = new FakeAzure();
        Assert.Equal(0, azure.Run("bash", "scripts/query-kql.sh", "cycle-time").ExitCode);
        Assert.Contains($"--subscription {FakeAzure.Subscription} ", azure.Calls.Single(c => c.StartsWith("monitor app-insights query", StringComparison.Ordinal)), StringComparison.Ordinal);

        using var other = new FakeAzure();
        Assert.Equal(0, other.Run("bash", "scripts/query-kql.sh", "--subscription", "other-sub", "cycle-time").ExitCode);
        Assert.Contains("--subscription other-sub ", other.Calls.Single(c => c.StartsWith("monitor app-insights query", StringComparison.Ordinal)), StringComparison.Ordinal);
    }

    [RequiresProgramFact("bash", "apt-get install bash")]
    public void Query_kql_measures_the_cycle_time_from_the_scheduled_instant_it_is_given()
    {
        using var azure = new FakeAzure();
        var (exitCode, output) = azure.Run("bash", "scripts/query-kql.sh", "--scheduled-at", "2026-11-24T10:00:30Z", "cycle-time");

        Assert.True(exitCode == 0, output);
        var query = azure.Calls.Single(c => c.StartsWith("monitor app-insights query", StringComparison.Ordinal));
        Assert.Contains("let scheduledAt = datetime(2026-11-24T10:00:30Z);", query, StringComparison.Ordinal);
        Assert.DoesNotContain("datetime(null)", query, StringComparison.Ordinal);
    }

    [RequiresProgramFact("bash", "apt-get install bash")]
    public void Query_kql_says_cycle_time_has_no_start_without_the_scheduled_instant_and_refuses_a_local_time()
    {
        using var azure = new FakeAzure();
        var (exitCode, output) = azure.Run("bash", "scripts/query-kql.sh", "cycle-time");
        Assert.True(exitCode == 0, output);
        Assert.Contains("cycle-time: no --scheduled-at, so no cycle time", output, StringComparison.Ordinal);

        var (refused, message) = azure.Run("bash", "scripts/query-kql.sh", "--scheduled-at", "2026-11-24 10:00:30", "cycle-time");
        Assert.Equal(2, refused);
        Assert.Contains("is not a UTC instant", message, StringComparison.Ordinal);
    }

    [RequiresProgramFact("bash", "apt-get install bash")]
    public void The_azure_burst_reads_the_scheduled_instant_from_the_load_tools_schedule_record()
    {
        var script = Repo.Read("scripts/azure-burst.sh");
        // The load tool writes its record where the script reads it.
        Assert.Contains("--state \"$schedule_record\"", script, StringComparison.Ordinal);
        Assert.Contains("--scheduled-at $scheduled_at", script, StringComparison.Ordinal);

        // The record as System.Text.Json writes it (ScheduleRecord): the instant comes out as UTC with a Z.
        using var azure = new FakeAzure();
        var record = azure.WriteFile("record.json", System.Text.Json.JsonSerializer.Serialize(
            new { ScheduledAt = DateTimeOffset.FromUnixTimeSeconds(1_795_000_000), Model = "pubsub-bulk", Count = 10_000, ClockSkewSeconds = 0.4 }));
        var function = System.Text.RegularExpressions.Regex.Match(Repo.Read("scripts/lib/burst-record.sh"), @"^scheduled_instant\(\) \{.*?^\}", System.Text.RegularExpressions.RegexOptions.Multiline | System.Text.RegularExpressions.RegexOptions.Singleline).Value;
        var (exitCode, output) = Repo.Run("bash", "-c", function + "\nscheduled_instant \"$1\"", "bash", record);

        Assert.True(exitCode == 0, output);
        Assert.Equal(DateTimeOffset.FromUnixTimeSeconds(1_795_000_000).UtcDateTime.ToString("yyyy-MM-ddTHH:mm:ssZ", System.Globalization.CultureInfo.InvariantCulture), output.Trim());
    }

    [RequiresProgramFact("bash", "apt-get install bash")]
    public void Query_kql_installs_the_log_analytics_extension_the_console_log_query_needs()
    {
        using var azure = new FakeAzure(extensionsInstalled: false);
        var (exitCode, output) = azure.Run("bash", "scripts/query-kql.sh", "lock-lost");

        Assert.True(exitCode == 0, output);
        Assert.Contains("extension add --name log-analytics --only-show-errors", azure.Calls);
        Assert.True(azure.Calls.IndexOf("extension add --name log-analytics --only-show-errors")
            < azure.Calls.FindIndex(c => c.StartsWith("monitor log-analytics query", StringComparison.Ordinal)));
    }

    [RequiresProgramFact("bash", "apt-get install bash")]
    public void Query_kql_refuses_an_unknown_query_name_before_calling_azure()
    {
        using var azure = new FakeAzure();
        var (exitCode, output) = azure.Run("bash", "scripts/query-kql.sh", "no-such-query");
        Assert.Equal(2, exitCode);
        Assert.Contains("no query no-such-query", output, StringComparison.Ordinal);
        Assert.Empty(azure.Calls);
    }

    [RequiresProgramTheory("bash", "apt-get install bash")]
    [InlineData("30m", "PT30M")]
    [InlineData("1h", "PT1H")]
    [InlineData("1d", "P1D")]
    [InlineData("1d12h", "P1DT12H")]
    [InlineData("2h30m", "PT2H30M")]
    [InlineData("90s", "PT90S")]
    public void Query_kql_turns_an_offset_into_the_iso_duration_log_analytics_wants(string offset, string timespan)
    {
        using var azure = new FakeAzure();
        var (exitCode, output) = azure.Run("bash", "scripts/query-kql.sh", "--offset", offset, "lock-lost", "cycle-time");

        Assert.True(exitCode == 0, output);
        var logAnalytics = azure.Calls.Single(c => c.StartsWith("monitor log-analytics query", StringComparison.Ordinal));
        Assert.EndsWith($"--timespan {timespan} -o json", logAnalytics, StringComparison.Ordinal);
        Assert.Contains($"--subscription {FakeAzure.Subscription} ", logAnalytics, StringComparison.Ordinal);
        // app-insights query takes the offset as typed (##d##h##m).
        Assert.Contains($"--offset {offset} -o json", azure.Calls.Single(c => c.StartsWith("monitor app-insights query", StringComparison.Ordinal)), StringComparison.Ordinal);
    }

    [RequiresProgramTheory("bash", "apt-get install bash")]
    [InlineData("1x")]
    [InlineData("h")]
    [InlineData("1h-")]
    [InlineData("")]
    public void Query_kql_refuses_an_offset_that_is_no_duration(string offset)
    {
        using var azure = new FakeAzure();
        var (exitCode, output) = azure.Run("bash", "scripts/query-kql.sh", "--offset", offset, "lock-lost");

        Assert.Equal(2, exitCode);
        Assert.Contains("is not a duration", output, StringComparison.Ordinal);
        Assert.Empty(azure.Calls);
    }

    [RequiresProgramFact("sh", "apt-get install dash")]
    public void Env_sync_unsets_a_setting_that_left_dot_env_so_its_default_applies_again()
    {
        using var azure = new FakeAzure();
        azure.SetAzdValue("MAX_ACTIVE_MESSAGES", "500").SetAzdValue("REQUEST_DEADLINE_SECONDS", "20");
        var env = azure.WriteFile(".env", "AZURE_LOCATION=eastus\nMESSAGING_MODEL=bindings\n# MAX_ACTIVE_MESSAGES=500\n");

        var (exitCode, output) = azure.Run("sh", "scripts/azd-env-sync.sh", env);

        Assert.True(exitCode == 0, output);
        var values = azure.AzdValues;
        Assert.False(values.ContainsKey("MAX_ACTIVE_MESSAGES"), output);
        Assert.False(values.ContainsKey("REQUEST_DEADLINE_SECONDS"), output);
        Assert.Equal("bindings", values["MESSAGING_MODEL"]);
        Assert.Contains("env unset MAX_ACTIVE_MESSAGES", azure.AzdCalls);
        // Only the settings it owns: deployment outputs stay.
        Assert.Equal("rg-fake", values["AZURE_RESOURCE_GROUP"]);
    }

    [RequiresProgramTheory("sh", "apt-get install dash")]
    [InlineData("DAPR_COMPONENTS_MODEL", "pubsub", "MESSAGING_MODEL")]
    [InlineData("DAPR_PUBSUB_MODEL", "single", "MESSAGING_MODEL")]
    [InlineData("DELIVERY_DEADLINE_SECONDS", "20", "REQUEST_DEADLINE_SECONDS")]
    public void Env_sync_stops_the_provision_in_one_line_naming_the_new_setting_when_dot_env_sets_a_renamed_one(string old, string value, string renamed)
    {
        using var azure = new FakeAzure();
        var env = azure.WriteFile(".env", $"AZURE_LOCATION=eastus\nMESSAGING_MODEL=pubsub-bulk\n{old}={value}\n");

        var (exitCode, output) = azure.Run("sh", "scripts/azd-env-sync.sh", env);

        Assert.Equal(1, exitCode);
        var line = Assert.Single(output.Split('\n', StringSplitOptions.RemoveEmptyEntries));
        Assert.Contains($"sets {old}, which is no longer read: set {renamed}", line, StringComparison.Ordinal);
        Assert.DoesNotContain(azure.AzdCalls, call => call.StartsWith("env set", StringComparison.Ordinal) || call.StartsWith("env unset", StringComparison.Ordinal));
    }

    [RequiresProgramTheory("sh", "apt-get install dash")]
    [InlineData(true)]
    [InlineData(false)]
    public void Env_sync_stops_the_provision_naming_messaging_model_when_the_azd_environment_still_sets_the_old_model(bool withDotEnv)
    {
        using var azure = new FakeAzure();
        azure.SetAzdValue("DAPR_COMPONENTS_MODEL", "bindings");
        var env = withDotEnv ? azure.WriteFile(".env", "AZURE_LOCATION=eastus\nMESSAGING_MODEL=bindings\n") : Path.Combine(Path.GetTempPath(), $"no-env-{Guid.NewGuid():N}");

        var (exitCode, output) = azure.Run("sh", "scripts/azd-env-sync.sh", env);

        Assert.Equal(1, exitCode);
        var line = Assert.Single(output.Split('\n', StringSplitOptions.RemoveEmptyEntries));
        Assert.Contains("the azd environment sets DAPR_COMPONENTS_MODEL, which is no longer read: set MESSAGING_MODEL (bindings, pubsub-single or pubsub-bulk)", line, StringComparison.Ordinal);
        Assert.Contains("azd env unset DAPR_COMPONENTS_MODEL", line, StringComparison.Ordinal);
    }

    [RequiresProgramFact("sh", "apt-get install dash")]
    public void Env_sync_stops_the_provision_when_azd_cannot_unset_a_setting_that_left_dot_env()
    {
        using var azure = new FakeAzure();
        azure.SetAzdValue("MAX_ACTIVE_MESSAGES", "500").WithoutAzdEnvUnset();
        var env = azure.WriteFile(".env", "AZURE_LOCATION=eastus\n");

        var (exitCode, output) = azure.Run("sh", "scripts/azd-env-sync.sh", env);

        Assert.Equal(1, exitCode);
        Assert.Contains("could not unset MAX_ACTIVE_MESSAGES", output, StringComparison.Ordinal);
        Assert.Equal("500", azure.AzdValues["MAX_ACTIVE_MESSAGES"]);
    }

    [RequiresProgramFact("sh", "apt-get install dash")]
    public void Env_sync_drops_windows_line_ends_spaces_inline_comments_and_quotes_from_the_values()
    {
        using var azure = new FakeAzure();
        var env = azure.WriteFile(".env",
            "AZURE_LOCATION=eastus\r\nMESSAGING_MODEL=pubsub-single   # one message per request\r\n" +
            "SERVICE_BUS_SKU=\"Premium\"\nMAX_MESSAGES_COUNT = 100\t# smaller bulks\nSINGLE_MAX_CONCURRENT_HANDLERS='32'");

        var (exitCode, output) = azure.Run("sh", "scripts/azd-env-sync.sh", env);

        Assert.True(exitCode == 0, output);
        var values = azure.AzdValues;
        Assert.Equal("pubsub-single", values["MESSAGING_MODEL"]);
        Assert.Equal("Premium", values["SERVICE_BUS_SKU"]);
        Assert.Equal("100", values["MAX_MESSAGES_COUNT"]);
        Assert.Equal("32", values["SINGLE_MAX_CONCURRENT_HANDLERS"]);
    }

    [RequiresProgramFact("sh", "apt-get install dash")]
    public void Env_sync_refuses_another_location_for_a_deployed_environment_and_changes_nothing()
    {
        using var azure = new FakeAzure();
        var env = azure.WriteFile(".env", "AZURE_LOCATION=westeurope\nMESSAGING_MODEL=bindings\n");

        var (exitCode, output) = azure.Run("sh", "scripts/azd-env-sync.sh", env);

        Assert.Equal(1, exitCode);
        Assert.Contains("AZURE_LOCATION=westeurope", output, StringComparison.Ordinal);
        Assert.Contains("deployed in eastus", output, StringComparison.Ordinal);
        Assert.DoesNotContain(azure.AzdCalls, call => call.StartsWith("env set", StringComparison.Ordinal) || call.StartsWith("env unset", StringComparison.Ordinal));
        Assert.Equal("eastus", azure.AzdValues["AZURE_LOCATION"]);
    }

    [RequiresProgramFact("sh", "apt-get install dash")]
    public void Env_sync_takes_a_location_change_before_the_first_deployment()
    {
        using var azure = new FakeAzure();
        azure.RemoveAzdValue("AZURE_RESOURCE_GROUP");
        var env = azure.WriteFile(".env", "AZURE_LOCATION=westeurope\n");

        var (exitCode, output) = azure.Run("sh", "scripts/azd-env-sync.sh", env);

        Assert.True(exitCode == 0, output);
        Assert.Equal("westeurope", azure.AzdValues["AZURE_LOCATION"]);
    }

    [RequiresProgramFact("sh", "apt-get install dash")]
    public void The_postprovision_hook_removes_the_unused_components_in_the_deployed_subscription()
    {
        using var azure = new FakeAzure();
        azure.Respond("dapr-component list", "q-order-ingress-input\nq-order-express-input");

        var (exitCode, output) = azure.Run("env", "AZURE_SUBSCRIPTION_ID=" + FakeAzure.Subscription, "AZURE_RESOURCE_GROUP=rg-fake",
            "AZURE_CONTAINER_APPS_ENVIRONMENT_NAME=cae-fake", "sh", "scripts/postprovision.sh");

        Assert.True(exitCode == 0, output);
        var removes = azure.Calls.Where(c => c.StartsWith("containerapp env dapr-component remove", StringComparison.Ordinal)).ToList();
        Assert.Equal(2, removes.Count);
        Assert.All(azure.Calls, call => Assert.Contains($"--subscription {FakeAzure.Subscription} ", call, StringComparison.Ordinal));
        Assert.Contains("--dapr-component-name q-order-express-input", removes[1], StringComparison.Ordinal);
    }
    [RequiresProgramFact("sh", "apt-get install dash")]
    public void The_postprovision_hook_never_stops_azd_up_when_az_is_not_signed_in_and_says_how_to_finish()
    {
        using var azure = new FakeAzure();
        azure.Fail("account show", "Please run 'az login' to setup account.");

        var (exitCode, output) = PostProvision(azure);

        Assert.True(exitCode == 0, output);
        var line = Assert.Single(output.Split('\n', StringSplitOptions.RemoveEmptyEntries));
        Assert.Contains("skipped removing the unused model's Dapr components", line, StringComparison.Ordinal);
        Assert.Contains("az is not signed in", line, StringComparison.Ordinal);
        Assert.EndsWith("To finish: az login && sh scripts/postprovision.sh", line, StringComparison.Ordinal);
        Assert.DoesNotContain(azure.Calls, call => call.Contains("dapr-component", StringComparison.Ordinal));
    }

    [RequiresProgramFact("sh", "apt-get install dash")]
    public void The_postprovision_hook_reports_a_component_it_could_not_remove_and_still_lets_azd_deploy()
    {
        using var azure = new FakeAzure();
        azure.Respond("dapr-component list", "q-order-ingress-input")
            .Fail("dapr-component remove", "(AuthorizationFailed) no write access");

        var (exitCode, output) = PostProvision(azure);

        Assert.True(exitCode == 0, output);
        Assert.Contains("skipped removing the Dapr components q-order-ingress-input (ERROR: (AuthorizationFailed) no write access)", output, StringComparison.Ordinal);
        Assert.Contains("To finish: az login && sh scripts/postprovision.sh", output, StringComparison.Ordinal);
    }

    [RequiresProgramFact("sh", "apt-get install dash")]
    public void The_postprovision_hook_run_by_hand_reads_the_azd_environment()
    {
        using var azure = new FakeAzure();
        azure.SetAzdValue("AZURE_CONTAINER_APPS_ENVIRONMENT_NAME", "cae-fake");
        azure.Respond("dapr-component list", "q-order-ingress-input");

        var (exitCode, output) = azure.Run("sh", "scripts/postprovision.sh");

        Assert.True(exitCode == 0, output);
        var remove = Assert.Single(azure.Calls, c => c.StartsWith("containerapp env dapr-component remove", StringComparison.Ordinal));
        Assert.Contains($"--subscription {FakeAzure.Subscription} --resource-group rg-fake --name cae-fake", remove, StringComparison.Ordinal);
    }

    private static (int ExitCode, string Output) PostProvision(FakeAzure azure) =>
        azure.Run("env", "AZURE_SUBSCRIPTION_ID=" + FakeAzure.Subscription, "AZURE_RESOURCE_GROUP=rg-fake",
            "AZURE_CONTAINER_APPS_ENVIRONMENT_NAME=cae-fake", "sh", "scripts/postprovision.sh");
    [RequiresProgramFact("jq", "apt-get install jq")]
    public void The_telemetry_export_writes_a_bursts_real_rows_in_the_shape_of_the_hand_written_sample()
    {
        using var azure = new FakeAzure();
        azure.Respond("customEvents | where", """
            {"tables":[{"name":"PrimaryResult","columns":[{"name":"cloud_RoleName","type":"string"},{"name":"name","type":"string"},{"name":"timestamp","type":"datetime"},{"name":"customMeasurements","type":"dynamic"}],"rows":[["receiver-express","OrdersStored","2026-11-20T10:00:06.42Z","{\"StoredCount\":250}"]]}]}
            """.Trim());
        var file = Path.Combine(azure.Folder, "recorded.json");

        var (exitCode, output) = azure.Run("bash", "scripts/export-telemetry.sh", "--start", "2026-11-20T09:59:00Z", "--end", "2026-11-20T10:05:00Z", "--out", file);

        Assert.True(exitCode == 0, output);
        var sample = System.Text.Json.Nodes.JsonNode.Parse(File.ReadAllText(file))!;
        Assert.StartsWith("RECORDED by scripts/export-telemetry.sh", sample["about"]!.GetValue<string>(), StringComparison.Ordinal);
        var stored = Assert.Single(sample["customEvents"]!.AsArray())!;
        Assert.Equal("receiver-express", stored["cloud_RoleName"]!.GetValue<string>());
        // A dynamic column is an object, as in the sample the tests read, not JSON text.
        Assert.Equal(250, stored["customMeasurements"]!["StoredCount"]!.GetValue<int>());
        foreach (var table in new[] { "requests", "traces", "dependencies", "ContainerAppConsoleLogs_CL" })
        {
            Assert.Empty(sample[table]!.AsArray());
        }

        Assert.All(azure.Calls.Where(c => c.Contains(" query ", StringComparison.Ordinal)),
            call => Assert.Contains($"--subscription {FakeAzure.Subscription} ", call, StringComparison.Ordinal));
    }
}
