using System.Diagnostics;

namespace OrderDistribution.Deployment.Tests;

/// <summary>
/// scripts/compare-local.sh's orchestration, with stand-ins for what it drives: run-local.sh (RUN_LOCAL), dotnet and
/// curl on PATH. Each records its calls, in order, in one log. The brokers the real run-local.sh --missing-consumers
/// asks are stand-ins too (<see cref="FakeBrokers"/>), every queue and stream consumed unless a test says otherwise.
/// </summary>
public sealed class CompareScriptTests : IDisposable
{
    private readonly string _dir = Directory.CreateTempSubdirectory("fake-compare-").FullName;
    private readonly FakeBrokers _brokers;

    public CompareScriptTests()
    {
        _brokers = new FakeBrokers(_dir).AllReady();
        // The trio's script: records its start, and its stop when its process group gets Ctrl+C (or TERM).
        Write("run-local", $$"""
            #!/usr/bin/env bash
            echo "start $*" >> '{{CallLog}}'
            trap 'echo "stop $*" >> "{{CallLog}}"; exit 0' INT TERM
            if [[ -f '{{_dir}}/trio-exits' && "$1" != --storage-only ]]; then cat '{{_dir}}/trio-exits' >&2; exit 1; fi
            # Bounded, so that a script that forgot to stop it leaves nothing behind for long.
            for _ in $(seq 1 120); do sleep 1; done
            """);
        // dotnet (order-load): records every call and appends a line to its --results file; a call whose arguments
        // contain the text in dotnet-fails exits 1 (or the code in dotnet-exit), and one containing the text in
        // dotnet-interrupts sends the script TERM, as a Ctrl+C in the middle of a burst would.
        Write("dotnet", $$"""
            #!/usr/bin/env bash
            echo "dotnet $*" >> '{{CallLog}}'
            all="$*"
            while [[ $# -gt 0 ]]; do
              if [[ "$1" == --results ]]; then echo "| a row |" >> "$2"; fi
              shift
            done
            if [[ "$all" == *bindings-broker* ]]; then
              echo "bindings broker, quorum, global prefetch 0 (unbounded): burst 0.5 s"
            fi
            if [[ -f '{{_dir}}/dotnet-fails' && "$all" == *"$(cat '{{_dir}}/dotnet-fails')"* ]]; then
              exit "$(cat '{{_dir}}/dotnet-exit' 2>/dev/null || echo 1)"
            fi
            if [[ -f '{{_dir}}/dotnet-interrupts' && "$all" == *"$(cat '{{_dir}}/dotnet-interrupts')"* ]]; then
              kill -TERM "$PPID"; sleep 1
            fi
            exit 0
            """);
        // curl: storage (port 10000) answers only once it was started, as Azurite does.
        Write("curl", $$"""
            #!/usr/bin/env bash
            if [[ "$*" == *10000* ]] && ! grep -q -- 'start --storage-only' '{{CallLog}}' 2>/dev/null; then exit 7; fi
            if [[ -f '{{_dir}}/not-ready' && "$*" == *3501* ]]; then exit 7; fi
            if [[ -f '{{_dir}}/trio-exits' && "$*" == *3501* ]]; then exit 7; fi
            exit 0
            """);
    }

    private string CallLog => Path.Combine(_dir, "calls.log");

    private string Out => Path.Combine(_dir, "out");

    private List<string> Calls => File.Exists(CallLog) ? [.. File.ReadAllLines(CallLog)] : [];

    [RequiresProgramFact("bash", "apt-get install bash")]
    public void Storage_alone_then_each_model_its_own_trio_a_cold_burst_then_warm_ones_storage_alone_again_the_report()
    {
        var (exitCode, output) = Compare("--runs", "2", "--models", "pubsub-bulk,pubsub-single,bindings");

        Assert.True(exitCode == 0, output);
        // Job control only while a job starts: no "[1]+ Terminated ..." as the trios stop.
        Assert.DoesNotContain("Terminated", output, StringComparison.Ordinal);
        Assert.DoesNotContain("[1]", output, StringComparison.Ordinal);
        var log = Path.Combine(Out, "LOG.jsonl");
        var run = $"dotnet {Repo.PathOf(LoadToolScriptTests.ScriptedBuild())}";
        Assert.Equal(
            [
                $"dotnet build -c Release " +
                $"{Repo.PathOf("src/OrderDistribution.LoadTool/OrderDistribution.LoadTool.csproj")}",
                "start --storage-only",
                $"{run} ceiling --results {log}",
                "start pubsub-bulk",
                $"{run} run --model pubsub-bulk --count 10000 --start cold --results {log}",
                $"{run} run --model pubsub-bulk --count 10000 --start warm --results {log}",
                "stop pubsub-bulk",
                "start pubsub-single",
                $"{run} run --model pubsub-single --count 10000 --start cold --results {log}",
                $"{run} run --model pubsub-single --count 10000 --start warm --results {log}",
                "stop pubsub-single",
                "start bindings",
                $"{run} run --model bindings --count 10000 --start cold --results {log}",
                $"{run} run --model bindings --count 10000 --start warm --results {log}",
                "stop bindings",
                $"{run} ceiling --results {log}",
                $"{run} report {log}",
                "stop --storage-only",
            ],
            Calls);
    }

    [RequiresProgramFact("bash", "apt-get install bash")]
    public void Asked_for_the_broker_alone_it_prints_rabbitmq_driven_with_the_bindings_own_setting_after_the_models()
    {
        var (exitCode, output) = Compare("--models", "bindings", "--runs", "1", "--count", "500", "--broker-alone");

        Assert.True(exitCode == 0, output);
        var calls = Calls;
        var broker = calls.IndexOf(
            $"dotnet run -c Release --project {Repo.PathOf("tests/OrderDistribution.Benchmarks")} -- bindings-broker " +
            $"500 --as-configured");
        Assert.InRange(broker, calls.IndexOf("stop bindings") + 1, calls.Count - 1);
        Assert.Contains("bindings broker, quorum, global prefetch 0 (unbounded): burst 0.5 s", output,
            StringComparison.Ordinal);
    }

    [RequiresProgramFact("bash", "apt-get install bash")]
    public void A_failed_burst_stops_its_trio_is_reported_in_one_line_and_the_next_model_still_runs()
    {
        File.WriteAllText(Path.Combine(_dir, "dotnet-fails"), "--model pubsub-single");

        var (exitCode, output) = Compare("--runs", "3", "--models", "pubsub-single,bindings", "--count", "500");

        Assert.Equal(1, exitCode);
        var calls = Calls;
        Assert.Single(calls, c => c.Contains("--model pubsub-single", StringComparison.Ordinal));
        Assert.InRange(calls.IndexOf("stop pubsub-single"), 0, calls.IndexOf("start bindings"));
        Assert.Equal(3,
            calls.Count(c => c.Contains("run --model bindings", StringComparison.Ordinal)
            && c.Contains("--count 500", StringComparison.Ordinal)));
        Assert.Contains(calls, c => c.EndsWith($"report {Path.Combine(Out, "LOG.jsonl")}", StringComparison.Ordinal));
        var failed = output.Split('\n').Where(l => l.StartsWith("pubsub-single: FAILED", StringComparison.Ordinal))
            .Distinct().ToList();
        Assert.Equal(
            $"pubsub-single: FAILED: burst 1 of 3 exited 1: orders not scheduled, or valid orders still missing at " +
            $"the timeout (see {Path.Combine(Out, "pubsub-single.trio.log")})",
            Assert.Single(failed));
        Assert.DoesNotContain("bindings: FAILED", output, StringComparison.Ordinal);
    }

    [RequiresProgramFact("bash", "apt-get install bash")]
    public void A_burst_refused_because_another_holds_the_storage_is_named_so_in_its_one_line()
    {
        File.WriteAllText(Path.Combine(_dir, "dotnet-fails"), "--start cold");
        File.WriteAllText(Path.Combine(_dir, "dotnet-exit"), "5");

        var (exitCode, output) = Compare("--runs", "1", "--models", "pubsub-bulk");

        Assert.Equal(1, exitCode);
        Assert.Contains(
            "pubsub-bulk: FAILED: burst 1 of 1 exited 5: another burst holds the storage (nothing was changed)", output,
            StringComparison.Ordinal);
    }

    [RequiresProgramFact("bash", "apt-get install bash")]
    public void A_trio_that_is_not_ready_in_time_is_stopped_reported_and_never_loaded()
    {
        File.WriteAllText(Path.Combine(_dir, "not-ready"), "");

        var (exitCode, output) = Compare("--models", "pubsub-bulk", "--ready-timeout", "2");

        Assert.Equal(1, exitCode);
        Assert.Contains("pubsub-bulk: FAILED: the trio was not ready within 2 s", output, StringComparison.Ordinal);
        Assert.Contains("stop pubsub-bulk", Calls);
        Assert.DoesNotContain(Calls, c => c.Contains(" run --model", StringComparison.Ordinal));
    }

    [RequiresProgramFact("bash", "apt-get install bash")]
    public void A_bindings_trio_whose_queue_lacks_consumers_is_not_ready_and_its_line_names_queue_and_sidecar_log()
    {
        // As on a real sidecar whose binding the broker refused: the sidecars and apps answer, nothing consumes.
        _brokers.Consumers(Contract.IngressQueue, 0);

        var (exitCode, output) = Compare("--models", "bindings", "--ready-timeout", "2");

        Assert.Equal(1, exitCode);
        var line = Assert.Single(
            output.Split('\n').Where(l => l.StartsWith("bindings: FAILED", StringComparison.Ordinal)).Distinct());
        Assert.StartsWith(
            $"bindings: FAILED: the trio was not ready within 2 s: queue {Contract.IngressQueue} has 0 of 4 " +
            $"consumers: " +
            $"read src/OrderDistribution.Distributor/.dapr/logs/{Contract.Distributor}_daprd_",
            line,
            StringComparison.Ordinal);
        Assert.Contains("stop bindings", Calls);
        Assert.DoesNotContain(Calls, c => c.Contains(" run --model", StringComparison.Ordinal));
    }

    [RequiresProgramFact("bash", "apt-get install bash")]
    public void A_pubsub_trio_whose_stream_lacks_its_group_is_not_ready_and_its_line_names_stream_and_sidecar_log()
    {
        _brokers.WithoutGroups(Contract.ExpressQueue);

        var (exitCode, output) = Compare("--models", "pubsub-bulk", "--ready-timeout", "2");

        Assert.Equal(1, exitCode);
        var line = Assert.Single(
            output.Split('\n').Where(l => l.StartsWith("pubsub-bulk: FAILED", StringComparison.Ordinal)).Distinct());
        Assert.StartsWith(
            $"pubsub-bulk: FAILED: the trio was not ready within 2 s: stream {Contract.ExpressQueue} has no consumer " +
            $"group " +
            $"{Contract.ReceiverExpress}: read " +
            $"src/OrderDistribution.Receiver/.dapr/logs/{Contract.ReceiverExpress}_daprd_",
            line,
            StringComparison.Ordinal);
        Assert.DoesNotContain(Calls, c => c.Contains(" run --model", StringComparison.Ordinal));
    }

    [RequiresProgramFact("bash", "apt-get install bash")]
    public void A_trio_whose_script_ends_at_start_is_reported_without_waiting_for_the_timeout()
    {
        File.WriteAllText(Path.Combine(_dir, "trio-exits"), "");

        var (exitCode, output) = Compare("--models", "bindings");

        Assert.Equal(1, exitCode);
        Assert.Contains("bindings: FAILED: run-local.sh ended before the trio was ready", output,
            StringComparison.Ordinal);
        Assert.DoesNotContain(Calls, c => c.Contains(" run --model", StringComparison.Ordinal));
    }

    [RequiresProgramFact("bash", "apt-get install bash")]
    public void A_model_that_could_not_run_is_named_in_the_report_with_why()
    {
        // As a bindings trio on a RabbitMQ whose vhost refuses guest ends: its sidecar's last word in the trio's log.
        File.WriteAllText(Path.Combine(_dir, "trio-exits"),
            "== APP - distributor == \u001b[31mFATAL\u001b[0m Exception (403) Reason: \"no access to this " +
            "vhost\"\r\nRabbitMQ: stopped (this script had started it)\n");

        var (exitCode, output) = Compare("--models", "bindings", "--runs", "1");

        Assert.Equal(1, exitCode);
        var reason =
            $"bindings: FAILED: run-local.sh ended before the trio was ready (see " +
            $"{Path.Combine(Out, "bindings.trio.log")}): " +
                     "== APP - distributor == FATAL Exception (403) Reason: \"no access to this vhost\"";
        Assert.Contains(reason, output, StringComparison.Ordinal);
        var report = File.ReadAllText(Path.Combine(Out, "report.md"));
        var notCompared = report[report.IndexOf("## Not compared", StringComparison.Ordinal)..];
        Assert.Contains("- " + reason + "\n", notCompared, StringComparison.Ordinal);
    }

    [RequiresProgramFact("bash", "apt-get install bash")]
    public void Interrupted_in_the_middle_of_a_burst_it_stops_the_trio_and_the_storage_it_started()
    {
        File.WriteAllText(Path.Combine(_dir, "dotnet-interrupts"), "--start warm");

        var (exitCode, output) = Compare("--models", "pubsub-bulk,bindings");

        Assert.True(exitCode == 130, output);
        var calls = Calls;
        Assert.Equal(["stop pubsub-bulk", "stop --storage-only"],
            calls.Where(c => c.StartsWith("stop ", StringComparison.Ordinal)));
        Assert.DoesNotContain("start bindings", calls);
    }

    [RequiresProgramFact("bash", "apt-get install bash")]
    public void Started_as_another_scripts_background_job_it_stops_its_trio_and_storage_at_once_all_the_same()
    {
        // A script's background job starts with Ctrl+C ignored, and so does all it starts: the trio never sees one.
        var clock = Stopwatch.StartNew();
        var (exitCode, output) = Repo.Run("bash",
            ["-c", "\"$@\" & wait $!", "bash", "env", .. CompareCommand(["--models", "pubsub-bulk", "--runs", "1"])]);
        clock.Stop();

        Assert.True(exitCode == 0, output);
        Assert.Equal(["stop pubsub-bulk", "stop --storage-only"],
            Calls.Where(c => c.StartsWith("stop ", StringComparison.Ordinal)));
        // Not the TERM that follows a Ctrl+C unanswered for 30 s.
        Assert.True(clock.Elapsed < TimeSpan.FromSeconds(30), $"{clock.Elapsed.TotalSeconds:0} s");
    }

    [RequiresProgramTheory("bash", "apt-get install bash")]
    [InlineData("--models", "grpc")]
    [InlineData("--runs", "0")]
    [InlineData("--runs", "three")]
    public void Compare_refuses_bad_arguments_before_starting_anything(string option, string value)
    {
        var (exitCode, _) = Compare(option, value);

        Assert.Equal(2, exitCode);
        Assert.Empty(Calls);
    }

    public void Dispose() => Directory.Delete(_dir, recursive: true);

    private (int ExitCode, string Output) Compare(params string[] arguments) =>
        Repo.Run("env", CompareCommand(arguments));

    /// <summary><c>env</c>'s arguments that run compare-local.sh with the stand-ins.</summary>
    private string[] CompareCommand(string[] arguments) =>
        ["-u", RenderedBindings.Setting,
        $"PATH={_dir}{Path.PathSeparator}{Environment.GetEnvironmentVariable("PATH")}",
        $"RUN_LOCAL={Path.Combine(_dir, "run-local")}",
        "bash", "scripts/compare-local.sh", "--out", Out, .. arguments];

    private void Write(string name, string script)
    {
        var file = Path.Combine(_dir, name);
        File.WriteAllText(file, script + "\n");
        if (!OperatingSystem.IsWindows())
        {
            File.SetUnixFileMode(file, UnixFileMode.UserRead | UnixFileMode.UserWrite | UnixFileMode.UserExecute);
        }
    }
}
