using System.Text.RegularExpressions;

namespace OrderDistribution.Deployment.Tests;

public partial class AzdTests
{
    private static readonly string[] ModelSettings =
    [
        "MESSAGING_MODEL", "MAX_MESSAGES_COUNT", "MAX_ACTIVE_MESSAGES", "MAX_CONCURRENT_HANDLERS",
        "SINGLE_MAX_ACTIVE_MESSAGES", "SINGLE_MAX_CONCURRENT_HANDLERS", "SERVICE_BUS_SKU",
            "SERVICE_BUS_MESSAGING_UNITS",
        "BINDING_CONSUMERS_PER_QUEUE",
    ];

    private static readonly string[] MessagingUnits = ["1", "2", "4", "8", "16"];

    [RequiresBicepFact]
    public void Azure_yaml_services_are_the_dapr_app_ids()
    {
        var services = Yaml.LoadMapping(Repo.Read("azure.yaml")).Mapping("services")!;
        var names = services.Children.Keys.Select(k => k.ToString()).ToList();

        Assert.Equal(DaprRunFile.Load(DaprRunFile.PubSub).Apps.Select(a => a.Id), names);
        Assert.Equal(names,
            InfraSnapshot.Default.ContainerApps.Select(a =>
            a.Resource["tags"]!["azd-service-name"]!.GetValue<string>()));
    }

    [Fact]
    public void Azure_yaml_services_point_at_existing_projects()
    {
        var services = Yaml.LoadMapping(Repo.Read("azure.yaml")).Mapping("services")!;
        foreach (var (key, value) in services.Children)
        {
            var service = (YamlDotNet.RepresentationModel.YamlMappingNode)value;
            var project = Repo.PathOf(service.Scalar("project") ?? "");
            Assert.True(Directory.Exists(project), $"service {key}: project folder {project} does not exist");
            Assert.Equal([Repo.PathOf(Contract.ProjectOfApp[key.ToString()])], Directory.GetFiles(project, "*.csproj"));
            Assert.Equal("containerapp", service.Scalar("host"));
            Assert.Equal("dotnet", service.Scalar("language"));
        }
    }

    [RequiresBicepFact]
    public void Azure_yaml_deploys_each_app_with_the_container_apps_api_version_the_bicep_provisions_it_with()
    {
        // azd deploy writes the app back with the service's apiVersion: an older one drops what only the
        // Bicep's version has (dapr.maxConcurrency).
        var services = Yaml.LoadMapping(Repo.Read("azure.yaml")).Mapping("services")!;
        var bicepVersions = InfraSnapshot.Default.ContainerApps.Select(app =>
            app.Resource["apiVersion"]!.GetValue<string>()).Distinct().ToList();
        var bicepVersion = Assert.Single(bicepVersions);

        foreach (var (key, value) in services.Children)
        {
            Assert.True(bicepVersion == ((YamlDotNet.RepresentationModel.YamlMappingNode)value).Scalar("apiVersion"),
                $"service {key}: apiVersion is not {bicepVersion}, the version infra/ deploys the container apps with");
        }
    }

    [Fact]
    public void Azure_yaml_hooks_run_existing_scripts()
    {
        var hooks = Yaml.LoadMapping(Repo.Read("azure.yaml")).Mapping("hooks")!;
        foreach (var hook in new[] { "preprovision", "postprovision", "postdeploy" })
        {
            var run = hooks.Mapping(hook)?.Mapping("posix")?.Scalar("run");
            Assert.NotNull(run);
            Assert.True(Repo.Exists(run), $"{hook} runs {run}, which does not exist");
        }
    }

    [Fact]
    public void Every_hook_has_a_form_for_each_os_that_runs_the_same_script()
    {
        // azd takes the hook's form for the OS it runs on; a hook without one stops azd before anything runs.
        var hooks = Yaml.LoadMapping(Repo.Read("azure.yaml")).Mapping("hooks")!;
        Assert.NotEmpty(hooks.Children);
        foreach (var (name, _) in hooks.Children)
        {
            var hook = hooks.Mapping(name.ToString())!;
            var posix = hook.Mapping("posix")
                ?? throw new Xunit.Sdk.XunitException($"hook {name} has no form for posix");
            var windows = hook.Mapping("windows")
                ?? throw new Xunit.Sdk.XunitException($"hook {name} has no form for windows");
            Assert.Equal("sh", posix.Scalar("shell"));
            Assert.Equal("pwsh", windows.Scalar("shell"));
            // Its exit code too: pwsh ends an inline script with 0 whatever the script it called exited with.
            Assert.Equal($"./scripts/hook.ps1 {posix.Scalar("run")}; exit $LASTEXITCODE", windows.Scalar("run"));
            Assert.Equal(posix.Scalar("continueOnError"), windows.Scalar("continueOnError"));
        }
    }

    [RequiresProgramFact("git", "apt-get install git")]
    public void Gitattributes_keeps_every_shell_script_lf_on_every_checkout()
    {
        // sh stops at the \r a Windows checkout would add to each line.
        var scripts = Directory.GetFiles(Repo.Root, "*.sh", SearchOption.AllDirectories)
            .Where(f =>
                !f.Contains($"{Path.DirectorySeparatorChar}.tools{Path.DirectorySeparatorChar}",
                StringComparison.Ordinal)
                && !f.Contains($"{Path.DirectorySeparatorChar}bin{Path.DirectorySeparatorChar}",
                    StringComparison.Ordinal)
                && !f.Contains($"{Path.DirectorySeparatorChar}obj{Path.DirectorySeparatorChar}",
                    StringComparison.Ordinal))
            .Select(f => Path.GetRelativePath(Repo.Root, f).Replace('\\', '/'))
            .Append(".ci/run").ToList();
        Assert.Contains("scripts/wait-ready.sh", scripts);

        var (exitCode, output) = Repo.Run("git", ["check-attr", "eol", "--", .. scripts]);

        Assert.True(exitCode == 0, output);
        foreach (var script in scripts)
        {
            Assert.Contains($"{script}: eol: lf", output, StringComparison.Ordinal);
        }
    }

    [Fact]
    public void The_postprovision_hook_removes_components_scoped_only_to_the_placeholder()
    {
        var script = Repo.Read("scripts/postprovision.sh");

        Assert.Contains("az containerapp env dapr-component list", script, StringComparison.Ordinal);
        Assert.Contains("az containerapp env dapr-component remove", script, StringComparison.Ordinal);
        Assert.Contains("length(properties.scopes || \\`[]\\`) == \\`1\\` && properties.scopes[0] == '$placeholder'",
            script, StringComparison.Ordinal);
        Assert.Contains($"placeholder=\"${{DAPR_PLACEHOLDER_SCOPE:-{Contract.PlaceholderScope}}}\"", script,
            StringComparison.Ordinal);
    }

    [Fact]
    public void The_postprovision_hook_can_never_stop_azd_up_between_provision_and_deploy()
    {
        // Its components are inert; a hook failure would leave the apps on the placeholder image.
        var hook = Yaml.LoadMapping(Repo.Read("azure.yaml"))
            .Mapping("hooks")!.Mapping("postprovision")!.Mapping("posix")!;
        Assert.Equal("true", hook.Scalar("continueOnError"));
        Assert.DoesNotContain("set -e", Repo.Read("scripts/postprovision.sh"), StringComparison.Ordinal);
    }

    [RequiresBicepFact]
    public void Scripts_require_only_values_the_deployment_outputs()
    {
        var outputs = BicepCompiler.Main["outputs"]!.AsObject().Select(o => o.Key).ToHashSet();
        foreach (var script in Directory.GetFiles(Repo.PathOf("scripts"), "*.sh"))
        {
            foreach (Match match in RequiredVariableRegex().Matches(File.ReadAllText(script)))
            {
                var name = match.Groups["name"].Value;
                Assert.True(outputs.Contains(name),
                    $"{Path.GetFileName(script)} requires {name}, which main.bicep does not output");
            }
        }
    }

    [RequiresBicepFact]
    public void Env_template_sets_every_model_setting_to_an_allowed_value()
    {
        var values = EnvTemplate();

        Assert.True(values.ContainsKey("AZURE_ENV_NAME"));
        Assert.True(values.ContainsKey("AZURE_LOCATION"));
        Assert.Contains(values["MESSAGING_MODEL"], OrderDistribution.Messaging.MessagingModels.Spellings);
        Assert.Contains(values["SERVICE_BUS_SKU"],
            BicepCompiler.Main["parameters"]!["serviceBusSku"]!["allowedValues"]!.AsArray()
            .Select(v => v!.GetValue<string>()));
        Assert.Contains(values["SERVICE_BUS_MESSAGING_UNITS"], MessagingUnits);
        foreach (var key in new[] { "MAX_MESSAGES_COUNT", "MAX_ACTIVE_MESSAGES", "MAX_CONCURRENT_HANDLERS",
            "SINGLE_MAX_ACTIVE_MESSAGES", "SINGLE_MAX_CONCURRENT_HANDLERS", "BINDING_CONSUMERS_PER_QUEUE" })
        {
            Assert.True(int.TryParse(values[key], out var number) && number > 0, $"{key}={values[key]}");
        }
    }

    [Fact]
    public void Env_template_settings_reach_the_bicep_parameters_through_the_azd_environment()
    {
        var parameters = string.Join('\n', MainBicepTests.MainParameters().Values);
        var sync = Repo.Read("scripts/azd-env-sync.sh");
        foreach (var key in ModelSettings)
        {
            Assert.True(EnvTemplate().ContainsKey(key), $".env.template does not set {key}");
            Assert.Contains("${" + key + "=", parameters, StringComparison.Ordinal);
            Assert.Contains($" {key} ", sync, StringComparison.Ordinal);
        }
    }

    [Fact]
    public void Every_setting_main_parameters_json_reads_from_the_user_is_one_the_preprovision_hook_carries_over()
    {
        var sync = Repo.Read("scripts/azd-env-sync.sh");
        var settings = MainBicepTests.MainParameters().Values
            .Select(value => AzdVariableRegex().Match(value))
            .Where(match => match.Success)
            .Select(match => match.Groups["name"].Value)
            .Where(name => !name.StartsWith("AZURE_", StringComparison.Ordinal)
                && !name.EndsWith("_RESOURCE_EXISTS", StringComparison.Ordinal))
            .ToList();

        Assert.Contains("TIERED_COMPILATION", settings);
        Assert.All(settings, name => Assert.Contains($" {name} ", sync, StringComparison.Ordinal));
    }

    [Fact]
    public void Env_template_holds_no_secret()
    {
        foreach (var key in EnvTemplate().Keys)
        {
            Assert.DoesNotMatch("(?i)(KEY|SECRET|PASSWORD|TOKEN|CONNECTION)", key);
        }
    }

    private static Dictionary<string, string> EnvTemplate() =>
        Repo.Read(".env.template").Split('\n')
            .Select(line => line.Trim())
            .Where(line => line.Length > 0 && !line.StartsWith('#'))
            .Select(line => line.Split('=', 2))
            .ToDictionary(parts => parts[0], parts => parts[1]);

    [GeneratedRegex(@":\s*""\$\{(?<name>[A-Z_]+):\?")]
    private static partial Regex RequiredVariableRegex();

    [GeneratedRegex(@"^\$\{(?<name>[A-Z_]+)")]
    private static partial Regex AzdVariableRegex();
}
