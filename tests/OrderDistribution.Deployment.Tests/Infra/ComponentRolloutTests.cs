namespace OrderDistribution.Deployment.Tests;

/// <summary>
/// A change to the Dapr components, as infra/ deploys them, reaches the sidecars: every app's template changes with it,
/// and the apps' revisions are built after the components and the roles they need.
/// </summary>
public sealed class ComponentRolloutTests
{
    /// <summary>Each setting that shapes the components, changed one at a time.</summary>
    public static TheoryData<string, object> ComponentSettings => new()
    {
        { "messagingModel", "bindings" },
        { "messagingModel", "pubsub-single" },
        { "serviceBusSku", "Premium" },
        { "maxActiveMessages", 200 },
        { "maxConcurrentHandlers", 2 },
        { "bindingConsumersPerQueue", 8 },
        { "requestDeadlineSeconds", 20 },
    };

    [RequiresBicepTheory]
    [MemberData(nameof(ComponentSettings))]
    public void A_change_to_the_components_starts_new_sidecars_because_every_app_template_changes_with_it(
        string parameter, object value)
    {
        // A sidecar loads its components when it starts, and a component change alone makes no new revision.
        var before = InfraSnapshot.Default;
        var after = InfraSnapshot.Of((parameter, value));
        Assert.NotEqual(Components(before), Components(after));

        foreach (var app in after.ContainerApps)
        {
            Assert.NotEqual(before.ContainerApp(app.Name).Env["DAPR_COMPONENTS_STAMP"],
                app.Env["DAPR_COMPONENTS_STAMP"]);
        }

        static string Components(InfraSnapshot snapshot) => string.Join('\n', snapshot.Resources
            .Where(r =>
                r["type"]!.GetValue<string>()
                .StartsWith("Microsoft.App/managedEnvironments/daprComponents", StringComparison.Ordinal))
            .Select(r => r.ToJsonString()));
    }

    [RequiresBicepFact]
    public void The_apps_revisions_are_built_after_the_components_changed_and_their_roles_exist()
    {
        foreach (var app in Contract.AppIds)
        {
            // main.bicep imports a type, so its template names resources symbolically (languageVersion 2.0).
            var module = Assert.Single(BicepCompiler.Resources(BicepCompiler.Main),
                r => r["name"]?.GetValue<string>() == $"app-{app}");
            var dependsOn = module["dependsOn"]!.AsArray().Select(d => d!.GetValue<string>()).ToList();
            Assert.Contains("daprComponents", dependsOn);
            Assert.Contains("queueRoles", dependsOn);
        }
    }
}
