using System.Globalization;
using OrderDistribution.Messaging;

namespace OrderDistribution.Deployment.Tests;

public class DaprRunFileTests
{

    /// <summary>
    /// Where scripts/run-local.sh publishes each app, in its project folder: the folder the run files start it from.
    /// </summary>
    private const string PublishedRun = "bin/run";

    public static readonly TheoryData<string> RunFiles = [DaprRunFile.PubSub, DaprRunFile.Bindings];

    [Theory]
    [MemberData(nameof(RunFiles))]
    public void Each_run_file_runs_the_three_apps_with_their_ports(string runFile)
    {
        var file = DaprRunFile.Load(runFile);

        Assert.Equal("1", file.Root.Scalar("version"));
        Assert.Equal(Contract.AppIds, file.Apps.Select(a => a.Id));
        var expected = new Dictionary<string, (int App, int Http, int Grpc)>
        {
            [Contract.Distributor] = (5001, 3501, 50011),
            [Contract.ReceiverExpress] = (5002, 3502, 50012),
            [Contract.ReceiverStandard] = (5003, 3503, 50013),
        };
        foreach (var app in file.Apps)
        {
            Assert.Equal(expected[app.Id], (app.AppPort, app.DaprHttpPort, app.DaprGrpcPort));
        }
    }

    [Theory]
    [MemberData(nameof(RunFiles))]
    public void Every_app_listens_where_its_sidecar_expects_it(string runFile)
    {
        foreach (var app in DaprRunFile.Load(runFile).Apps)
        {
            Assert.Equal($"http://127.0.0.1:{app.AppPort}", app.Env.GetValueOrDefault("ASPNETCORE_URLS"));
            Assert.Equal("http", app["appProtocol"]);
            Assert.Equal(runFile == DaprRunFile.PubSub ? MessagingModels.PubSubBulk : MessagingModels.Bindings,
                app.Env.GetValueOrDefault("Messaging__Model"));
        }
    }

    [Theory]
    [MemberData(nameof(RunFiles))]
    public void Every_app_runs_the_build_run_local_publishes_ahead_of_time_compiled_into_its_project_folder(
        string runFile)
    {
        var script = Repo.Read("scripts/run-local.sh");
        foreach (var app in DaprRunFile.Load(runFile).Apps)
        {
            var project = Path.GetFileNameWithoutExtension(Contract.ProjectOfApp[app.Id]);
            Assert.Equal(["dotnet", $"{PublishedRun}/{project}.dll"], app.Command);
            Assert.Contains($"-o \"$ROOT/src/OrderDistribution.$project/{PublishedRun}\"", script);
        }

        Assert.Contains("dotnet publish -c Release --use-current-runtime --self-contained false", script);
    }

    [Theory]
    [MemberData(nameof(RunFiles))]
    public void Every_appDirPath_exists_and_holds_the_apps_project(string runFile)
    {
        foreach (var app in DaprRunFile.Load(runFile).Apps)
        {
            Assert.True(Directory.Exists(app.DirPath), $"{runFile}: {app.Id} appDirPath {app.DirPath} does not exist");
            var projects = Directory.GetFiles(app.DirPath, "*.csproj");
            Assert.Equal([Repo.PathOf(Contract.ProjectOfApp[app.Id])], projects);
        }
    }

    [Theory]
    [MemberData(nameof(RunFiles))]
    public void Receivers_get_their_instance_and_the_local_blob_storage(string runFile)
    {
        var file = DaprRunFile.Load(runFile);
        foreach (var instance in Contract.Instances)
        {
            var env = file.AppOf($"receiver-{instance}").Env;
            Assert.Equal(instance, env.GetValueOrDefault("INSTANCE"));
            Assert.False(string.IsNullOrEmpty(env.GetValueOrDefault("Storage__ConnectionString")),
                $"receiver-{instance} has no Storage__ConnectionString");
        }

        Assert.False(file.AppOf(Contract.Distributor).Env.ContainsKey("INSTANCE"));
    }

    [Fact]
    public void Each_run_file_loads_its_own_model_folder_and_configuration()
    {
        foreach (var (runFile, folder) in DaprRunFile.Models)
        {
            foreach (var app in DaprRunFile.Load(runFile).Apps)
            {
                Assert.Equal([Repo.PathOf(folder)], app.ResourcesPaths);
                Assert.Equal(Repo.PathOf($"{folder}/config.yaml"), app.ConfigFilePath);
            }
        }
    }

    [Fact]
    public void The_two_run_files_differ_only_in_their_components_folder_and_model()
    {
        static string[] Significant(string file) =>
            Repo.Read(file).Split('\n')
                .Where(line => !line.TrimStart().StartsWith('#'))
                .Where(line => !line.Contains("Messaging__Model", StringComparison.Ordinal))
                .Select(line => line.Replace("components-pubsub", "MODEL", StringComparison.Ordinal)
                    .Replace("components-bindings", "MODEL", StringComparison.Ordinal))
                .ToArray();

        Assert.Equal(Significant(DaprRunFile.PubSub), Significant(DaprRunFile.Bindings));
    }

    [RequiresProgramFact("bash", "apt-get install bash")]
    public void Run_local_renders_run_files_whose_paths_and_model_are_right()
    {
        foreach (var model in MessagingModels.Spellings)
        {
            var original = DaprRunFile.Load(
                model == MessagingModels.Bindings ? DaprRunFile.Bindings : DaprRunFile.PubSub);
            var rendered = Render(model);
            Assert.Equal(original.Apps.Select(a => a.Id), rendered.Apps.Select(a => a.Id));
            foreach (var app in rendered.Apps)
            {
                var source = original.AppOf(app.Id);
                Assert.Equal(source.DirPath, app.DirPath);
                // The bindings model loads the copy of its folder the script renders beside the run file.
                var folder = model == MessagingModels.Bindings ? Repo.PathOf(
                    ".dapr/components-bindings") : Assert.Single(source.ResourcesPaths);
                Assert.Equal([folder], app.ResourcesPaths);
                Assert.Equal(Path.Combine(folder, "config.yaml"), app.ConfigFilePath);
                Assert.Equal(model, app.Env["Messaging__Model"]);
            }
        }
    }

    [RequiresProgramTheory("bash", "apt-get install bash")]
    [InlineData("pubsub bulk", "scripts/run-local.sh pubsub-bulk")]
    [InlineData("pubsub single", "scripts/run-local.sh pubsub-single")]
    [InlineData("pubsub", "pubsub-bulk or pubsub-single")]
    [InlineData("bindings bulk", "scripts/run-local.sh bindings")]
    [InlineData("bulk", "bindings, pubsub-single or pubsub-bulk")]
    public void Run_local_refuses_the_model_and_mode_it_took_before_naming_the_one_spelling(string arguments,
        string advice)
    {
        var (exitCode, output) = Repo.Run("bash", ["scripts/run-local.sh", "--render-only", .. arguments.Split(' ')]);

        Assert.Equal(2, exitCode);
        Assert.Contains(advice, Assert.Single(output.Split('\n', StringSplitOptions.RemoveEmptyEntries)),
            StringComparison.Ordinal);
    }

    [RequiresProgramFact("bash", "apt-get install bash")]
    public void No_run_file_turns_on_the_app_health_check_that_wedges_bulk_subscriptions_and_input_bindings()
    {
        // When the check fails, daprd stops subscriptions and input bindings; on daprd 1.14 a stopped bulk
        // subscription (pubsub.redis) or RabbitMQ input binding never delivers again. Every model here uses one.
        foreach (var file in RenderedAndCommitted())
        {
            foreach (var app in file.Apps)
            {
                Assert.True(app["enableAppHealthCheck"] is null or "false",
                    $"{file.Path}: {app.Id} turns on Dapr's app health check");
            }
        }
    }

    [RequiresProgramFact("bash", "apt-get install bash")]
    public void The_pubsub_single_model_holds_each_sidecar_to_as_many_requests_as_its_app_works_on_at_once()
    {
        var receiverWrites = AppSettings.Load(Contract.ReceiverSettings).RequiredInt("Receiver:MaxConcurrentWrites");
        var distributorCalls = new OrderDistribution.Messaging.Outbound.SidecarOptions().MaxConcurrentRequests;
        foreach (var app in Render(MessagingModels.PubSubSingle).Apps)
        {
            var cap = int.Parse(app["appMaxConcurrency"] ?? "0", CultureInfo.InvariantCulture);
            Assert.Equal(app.Id == Contract.Distributor ? distributorCalls : receiverWrites, cap);
        }

        // Bulk requests are few and large, a binding's one per consumer: a cap there only adds a queue in the sidecar.
        Assert.All(Render(MessagingModels.PubSubBulk).Apps, app => Assert.Null(app["appMaxConcurrency"]));
        Assert.All(Render(MessagingModels.Bindings).Apps, app => Assert.Null(app["appMaxConcurrency"]));
        foreach (var (runFile, _) in DaprRunFile.Models)
        {
            Assert.All(DaprRunFile.Load(runFile).Apps, app => Assert.Null(app["appMaxConcurrency"]));
        }
    }

    /// <summary>
    /// Development puts the developer exception page in every request's path; the images run Production.
    /// </summary>
    [RequiresProgramFact("bash", "apt-get install bash")]
    public void Every_run_starts_the_apps_in_production_unless_the_shell_says_otherwise()
    {
        foreach (var file in RenderedAndCommitted())
        {
            Assert.All(file.Apps, app => Assert.DoesNotContain("ASPNETCORE_ENVIRONMENT", app.Env.Keys));
        }
    }

    /// <summary>
    /// daprd 1.18 logs a warning per entry answered RETRY one at a time: tens of thousands through an outage.
    /// </summary>
    [RequiresProgramFact("bash", "apt-get install bash")]
    public void Only_the_pubsub_single_models_sidecars_log_at_error()
    {
        Assert.All(Render(MessagingModels.PubSubSingle).Apps, app => Assert.Equal("error", app["logLevel"]));
        Assert.All(Render(MessagingModels.PubSubBulk).Apps, app => Assert.Null(app["logLevel"]));
        Assert.All(Render(MessagingModels.Bindings).Apps, app => Assert.Null(app["logLevel"]));
    }

    private static IEnumerable<DaprRunFile> RenderedAndCommitted()
    {
        foreach (var (runFile, _) in DaprRunFile.Models)
        {
            yield return DaprRunFile.Load(runFile);
        }

        foreach (var model in MessagingModels.Spellings)
        {
            yield return Render(model);
        }
    }

    private static DaprRunFile Render(string model)
    {
        var (exitCode, output) = Repo.Run("bash", "scripts/run-local.sh", "--render-only", model);
        Assert.True(exitCode == 0, output);
        return DaprRunFile.LoadFullPath(output.Trim());
    }

    [RequiresProgramFact("bash", "apt-get install bash")]
    public void Run_local_starts_azurite_without_its_debug_log_unless_asked()
    {
        var (exitCode, output) = Repo.Run("bash", "scripts/run-local.sh", "--azurite-args");
        Assert.True(exitCode == 0, output);
        var args = output.Split('\n', StringSplitOptions.RemoveEmptyEntries);
        Assert.DoesNotContain("--debug", args);
        Assert.Contains("--location", args);

        var (debugExit, debugOutput) = Repo.Run("env", "AZURITE_DEBUG=1", "bash", "scripts/run-local.sh",
            "--azurite-args");
        Assert.True(debugExit == 0, debugOutput);
        Assert.Contains("--debug", debugOutput.Split('\n', StringSplitOptions.RemoveEmptyEntries));
    }

    [Fact]
    public void Run_local_starts_azurite_with_the_arguments_it_prints()
    {
        // The --azurite-args test above is only worth something if the real start uses the same list.
        var script = Repo.ReadScript("scripts/run-local.sh");
        var starts = script.Split('\n')
            .Where(line => line.TrimStart().StartsWith("\"$azurite\"", StringComparison.Ordinal)).ToList();
        var start = Assert.Single(starts);
        Assert.Contains("\"${args[@]}\"", start, StringComparison.Ordinal);
        Assert.DoesNotContain("--debug", start, StringComparison.Ordinal);
        Assert.Contains("done < <(azurite_args)", script, StringComparison.Ordinal);
    }
}
