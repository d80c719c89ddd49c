using System.Text.Json.Nodes;

namespace OrderDistribution.Deployment.Tests;

/// <summary>
/// What azd deploy (1.23.2 and later, azure.yaml requiredVersions) deploys for each app:
/// infra/&lt;service&gt;.bicepparam, the template main.bicep provisions the app with, main.bicep's settings for it and
/// the image azd has just pushed. So the first revision that runs the app's own image is what every later deploy and
/// provision gives it, probes included.
/// </summary>
public class AppDeployTests
{
    private const string PushedImage = "crfake.azurecr.io/order-distribution/distributor-fake:azd-deploy-1";

    [RequiresBicepFact]
    public void Each_service_is_deployed_with_the_template_and_the_settings_main_bicep_provisions_it_with()
    {
        var main = BicepCompiler.Main;
        var modules = BicepCompiler.Resources(main)
            .Where(r => r["type"]?.GetValue<string>() == "Microsoft.Resources/deployments").ToList();
        foreach (var service in Yaml.LoadMapping(Repo.Read("azure.yaml"))
            .Mapping("services")!.Children.Keys.Select(k => k.ToString()))
        {
            var variable = $"SERVICE_{service.Replace('-', '_').ToUpperInvariant()}_APP";
            var deploy = Repo.Read($"infra/{service}.bicepparam");
            Assert.Contains("using 'modules/container-app.bicep'", deploy, StringComparison.Ordinal);
            Assert.Contains($"param app = json(readEnvironmentVariable('{variable}'))", deploy,
                StringComparison.Ordinal);
            Assert.Contains($"param name = '{service}'", deploy, StringComparison.Ordinal);

            // main.bicep gives the app's module exactly what it outputs for azd deploy.
            var module = Assert.Single(modules,
                m => m["properties"]?["parameters"]?["name"]?["value"]?.ToString() == service);
            var output = main["outputs"]?[variable]?["value"]?.ToString();
            Assert.NotNull(output);
            Assert.Equal(output, module["properties"]!["parameters"]!["app"]!["value"]!.ToString());
            Assert.Equal(
                BicepCompiler.Build("infra/modules/container-app.bicep")["resources"]!.ToJsonString(),
                module["properties"]!["template"]!["resources"]!.ToJsonString());
        }
    }

    [RequiresBicepFact]
    public void The_first_revision_azd_deploys_runs_the_pushed_image_with_its_probes()
    {
        var app = Deploy("distributor");

        Assert.Equal(PushedImage, app.Container["image"]!.GetValue<string>());
        var probes = app.Container["probes"]!.AsArray().Select(p => $"{p!["type"]} {p["httpGet"]!["path"]}");
        Assert.Equal(["Liveness /alive", "Readiness /health"], probes);
        Assert.Equal("distributor", app.Resource["tags"]!["azd-service-name"]!.GetValue<string>());
    }

    /// <summary>
    /// bicep snapshot of infra/&lt;service&gt;.bicepparam with the azd environment azd deploy would have.
    /// </summary>
    private static DeployedApp Deploy(string service)
    {
        var folder = Directory.CreateTempSubdirectory("app-deploy-").FullName;
        try
        {
            // A .bicepparam names its template by a relative path; snapshot writes beside it.
            var template = Path.GetRelativePath(folder, Repo.PathOf("infra/modules/container-app.bicep"))
                .Replace('\\', '/');
            var file = Path.Combine(folder, "deploy.bicepparam");
            File.WriteAllText(file,
                Repo.Read($"infra/{service}.bicepparam")
                .Replace("'modules/container-app.bicep'", $"'{template}'", StringComparison.Ordinal));
            var (exitCode, output) = Repo.Run("env", [
                .. AzdDeployEnvironment.Of(service, PushedImage),
                BicepCompiler.Path!, "snapshot", file, "--subscription-id", InfraSnapshot.SubscriptionId,
                    "--resource-group", "rg-fake",
                "--location", InfraSnapshot.Location]);
            var result = Path.Combine(folder, "deploy.snapshot.json");
            Assert.True(exitCode == 0 && File.Exists(result), $"bicep snapshot: exit {exitCode}\n{output}");
            var snapshot = JsonNode.Parse(File.ReadAllText(result))!.AsObject();
            return new DeployedApp(Assert.Single(
                snapshot["predictedResources"]!.AsArray().Select(r => r!.AsObject()),
                r => r["type"]!.GetValue<string>() == "Microsoft.App/containerApps"));
        }
        finally
        {
            Directory.Delete(folder, recursive: true);
        }
    }
}
