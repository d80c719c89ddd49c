namespace OrderDistribution.Deployment.Tests;

/// <summary>
/// The container apps infra/ deploys: their app ids, settings and identity, Dapr and ingress, scale rule and probes,
/// and the sidecar settings each model needs, read from what the Bicep compiler evaluates.
/// </summary>
public class ContainerAppTests
{
    [RequiresBicepFact]
    public void The_container_apps_use_the_dapr_app_ids_of_dapr_yaml_as_app_and_role_names()
    {
        var runFileIds = DaprRunFile.Load(DaprRunFile.PubSub).Apps.Select(a => a.Id).ToList();
        var apps = InfraSnapshot.Default.ContainerApps;

        // The container app name is the cloud role name the KQL queries filter on, and azd's service name.
        Assert.Equal(runFileIds, apps.Select(a => a.Name));
        Assert.All(apps, app =>
        {
            Assert.Equal(app.Name, app.Configuration["dapr"]!["appId"]!.GetValue<string>());
            Assert.Equal(app.Name, app.Resource["tags"]!["azd-service-name"]!.GetValue<string>());
        });
    }

    [RequiresBicepFact]
    public void Every_container_app_gets_the_model_settings_and_its_identity()
    {
        var snapshot = InfraSnapshot.Of(("messagingModel", "pubsub-single"), ("maxMessagesCount", 100));
        foreach (var app in snapshot.ContainerApps)
        {
            Assert.Equal("pubsub-single", app.Env["Messaging__Model"]);
            Assert.Equal("100", app.Env["Messaging__MaxMessagesCount"]);
            Assert.Equal("secretref:appinsights-connection-string", app.Env["APPLICATIONINSIGHTS_CONNECTION_STRING"]);
            Assert.Contains($"/userAssignedIdentities/id-{app.Name}-", app.Env["AZURE_CLIENT_ID"],
                StringComparison.Ordinal);
            if (app.Name.StartsWith("receiver-", StringComparison.Ordinal))
            {
                Assert.Equal(app.Name["receiver-".Length..], app.Env["INSTANCE"]);
                Assert.Equal(snapshot.Output("STORAGE_BLOB_ENDPOINT"), app.Env["Storage__AccountUrl"]);
            }
        }
    }

    [RequiresBicepFact]
    public void The_container_apps_run_dapr_internal_ingress_and_scale_on_the_queue_they_read()
    {
        var scaledOn = new Dictionary<string, string>
        {
            [Contract.Distributor] = Contract.IngressQueue,
            [Contract.ReceiverExpress] = Contract.ExpressQueue,
            [Contract.ReceiverStandard] = Contract.StandardQueue,
        };
        var snapshot = InfraSnapshot.Default;
        foreach (var app in snapshot.ContainerApps)
        {
            var dapr = app.Configuration["dapr"]!;
            Assert.True(dapr["enabled"]!.GetValue<bool>());
            Assert.Equal(8080, dapr["appPort"]!.GetValue<int>());
            Assert.Equal("http", dapr["appProtocol"]!.GetValue<string>());
            Assert.False(app.Configuration["ingress"]!["external"]!.GetValue<bool>());
            Assert.Equal("8080", app.Env["ASPNETCORE_HTTP_PORTS"]);

            var rule = app.ScaleRule;
            Assert.Equal("azure-servicebus", rule["type"]!.GetValue<string>());
            Assert.Equal(scaledOn[app.Name], rule["metadata"]!["queueName"]!.GetValue<string>());
            Assert.Equal(snapshot.Output("SERVICEBUS_NAMESPACE"), rule["metadata"]!["namespace"]!.GetValue<string>());
        }
    }

    [RequiresBicepFact]
    public void Probes_are_set_only_when_the_app_runs_its_real_image_not_azds_placeholder()
    {
        // Not yet deployed by azd: the placeholder image, which serves neither probe path, and no probes.
        Assert.All(InfraSnapshot.Of(("distributorExists", false)).ContainerApps, app =>
        {
            Assert.StartsWith("mcr.microsoft.com/", app.Container["image"]!.GetValue<string>(),
                StringComparison.Ordinal);
            Assert.Empty(app.Container["probes"]!.AsArray());
        });

        // Deployed: the image is read from the running app, and the probes follow that image, not `exists` (true
        // also after a provision that left the placeholder running).
        var deployed = InfraSnapshot.Of(("distributorExists", true)).ContainerApp(Contract.Distributor).Container;
        Assert.Contains("/containerApps/distributor'", deployed["image"]!.GetValue<string>(), StringComparison.Ordinal);
        var probes = deployed["probes"]!.GetValue<string>();
        Assert.StartsWith("[if(not(equals(coalesce(tryGet(tryGet(reference(", probes, StringComparison.Ordinal);
        Assert.Contains("'mcr.microsoft.com/dotnet/samples:aspnetapp')), variables('probes'), createArray())]", probes,
            StringComparison.Ordinal);

        // Liveness never checks dependencies: a storage outage must not restart containers.
        var module = Assert.Single(BicepCompiler.Resources(BicepCompiler.Main),
            r => r["name"]?.GetValue<string>() == "app-distributor");
        var declared = module["properties"]!["template"]!["variables"]!["probes"]!.AsArray()
            .ToDictionary(p => p!["type"]!.GetValue<string>(), p => p!["httpGet"]!["path"]!.GetValue<string>());
        Assert.Equal(Contract.LivenessPath, declared["Liveness"]);
        Assert.Equal(Contract.ReadinessPath, declared["Readiness"]);
    }

    [RequiresBicepFact]
    public void No_container_app_runs_the_dapr_app_health_check_which_stops_bulk_subscriptions_and_bindings_for_good()
    {
        // docs/dapr-sidecar.md, "What the sidecar answers, and what it does on its own": a subscription or input
        // binding stopped by app health wedged daprd 1.14. Backpressure is the apps' per-entry RETRY answer; the
        // container probes stay.
        foreach (var model in OrderDistribution.Messaging.MessagingModels.Spellings)
        {
            var apps = InfraSnapshot.Of(("messagingModel", model)).ContainerApps;
            Assert.Equal(3, apps.Count);
            Assert.All(apps, app => Assert.Null(app.Configuration["dapr"]!["appHealth"]));
        }
    }

    [RequiresBicepFact]
    public void Pubsub_single_bounds_each_sidecars_requests_into_its_app_by_its_handlers_and_nothing_else_does()
    {
        var single = InfraSnapshot.Of(("messagingModel", "pubsub-single"));
        var handlers = single.Component(Contract.PubSubName).IntMetadata("maxConcurrentHandlers");
        Assert.Equal(64, handlers);
        Assert.All(single.ContainerApps,
            app => Assert.Equal(handlers, app.Configuration["dapr"]!["maxConcurrency"]!.GetValue<int>()));

        foreach (var other in new[] { InfraSnapshot.Of(("messagingModel", "pubsub-bulk")),
            InfraSnapshot.Of(("messagingModel", "bindings")) })
        {
            Assert.All(other.ContainerApps, app => Assert.Null(app.Configuration["dapr"]!["maxConcurrency"]));
        }
    }

    /// <summary>
    /// daprd warns once per entry answered RETRY one at a time, each line billed in Log Analytics; the local run's
    /// single model sets the same (DaprRunFileTests).
    /// </summary>
    [RequiresBicepFact]
    public void Only_the_pubsub_single_models_sidecars_log_at_error_as_in_the_local_run()
    {
        foreach (var (model, level) in new[] { ("pubsub-single", "error"), ("pubsub-bulk", "info"),
            ("bindings", "info") })
        {
            var apps = InfraSnapshot.Of(("messagingModel", model)).ContainerApps;
            Assert.Equal(3, apps.Count);
            Assert.All(apps, app => Assert.Equal(level, app.Configuration["dapr"]!["logLevel"]!.GetValue<string>()));
        }
    }
}
