namespace OrderDistribution.Deployment.Tests;

/// <summary>
/// Least privilege, as infra/ deploys it: each identity holds the roles on exactly what it uses, and nothing else.
/// </summary>
public sealed class LeastPrivilegeTests
{
    private const string Receiver = "4f6d3b9b-027b-4f4c-9142-0e5a2a2247e0";
    private const string Sender = "69a216fc-b8fb-44d8-bc22-1f3c2cd27a39";
    private const string Owner = "090c5cfd-751d-490a-894a-3ce6f1109419";
    private const string BlobDataContributor = "ba92f5b4-2d11-453d-a403-e96b0029c9fe";
    private const string AcrPull = "7f951dda-4ed3-4680-a7ca-43fe172d538d";
    private const string MetricsPublisher = "3913510d-42f4-4e42-8a64-420c390055eb";

    [RequiresBicepFact]
    public void Each_queue_role_belongs_to_exactly_what_uses_it_and_nothing_else()
    {
        var expected = new List<(string, string, string)>
        {
            // The scalers' identities: Data Owner on the one queue their app scales on, nothing else.
            ("id-distributor-scaler", Contract.IngressQueue, Owner),
            ("id-receiver-express-scaler", Contract.ExpressQueue, Owner),
            ("id-receiver-standard-scaler", Contract.StandardQueue, Owner),
            // The apps' system-assigned identities, each app's one identity for Service Bus (pub/sub and bindings).
            ("distributor (system-assigned)", Contract.IngressQueue, Receiver),
            ("distributor (system-assigned)", Contract.ExpressQueue, Sender),
            ("distributor (system-assigned)", Contract.StandardQueue, Sender),
            ("receiver-express (system-assigned)", Contract.ExpressQueue, Receiver),
            ("receiver-standard (system-assigned)", Contract.StandardQueue, Receiver),
            // Each app keeps what it refuses for good on the dead-letter queue.
            ("distributor (system-assigned)", Contract.DeadLetterQueue, Sender),
            ("receiver-express (system-assigned)", Contract.DeadLetterQueue, Sender),
            ("receiver-standard (system-assigned)", Contract.DeadLetterQueue, Sender),
            // The user's load tool sends the burst, and the user reads and takes off the dead letters.
            (InfraSnapshot.UserPrincipalId, Contract.IngressQueue, Sender),
            (InfraSnapshot.UserPrincipalId, Contract.DeadLetterQueue, Receiver),
        };

        var actual = InfraSnapshot.Default.RoleAssignments.Where(a => a.ScopeType == "queues")
            .Select(a => (a.Who, a.ScopeName, a.RoleId));
        Assert.Equal(expected.Order(), actual.Order());
    }

    [RequiresBicepFact]
    public void No_app_container_can_use_the_data_owner_right_its_scaler_needs()
    {
        var snapshot = InfraSnapshot.Default;
        var owners = snapshot.RoleAssignments.Where(a => a.RoleId == Owner).Select(a => a.Who).ToHashSet();
        foreach (var app in snapshot.ContainerApps)
        {
            var scaler = $"id-{app.Name}-scaler";
            Assert.Contains(scaler, owners);
            // The scale rule signs in with the scaler's identity, which only the platform may use (lifecycle None).
            Assert.Matches($"/userAssignedIdentities/{scaler}-[a-z0-9]+$",
                app.ScaleRule["identity"]!.GetValue<string>());
            var settings = Assert.Single(app.Configuration["identitySettings"]!.AsArray())!;
            Assert.Equal(app.ScaleRule["identity"]!.GetValue<string>(), settings["identity"]!.GetValue<string>());
            Assert.Equal("None", settings["lifecycle"]!.GetValue<string>());
            // What the containers sign in with holds no Owner role.
            Assert.DoesNotContain(app.Env["AZURE_CLIENT_ID"], scaler, StringComparison.Ordinal);
            Assert.DoesNotContain($"id-{app.Name}", owners);
            Assert.DoesNotContain($"{app.Name} (system-assigned)", owners);
        }
    }

    [RequiresBicepFact]
    public void Each_receiver_identity_may_write_only_its_own_outbox_and_the_user_every_container_of_the_load_tool()
    {
        var actual = InfraSnapshot.Default.RoleAssignments
            .Where(a => a.ScopeType == "containers")
            .Select(a => (a.Who, a.ScopeName, a.RoleId))
            .Order();

        var expected = new List<(string, string, string)>
        {
            ("id-receiver-express", "express-outbox", BlobDataContributor),
            ("id-receiver-standard", "standard-outbox", BlobDataContributor),
        };
        expected.AddRange(Contract.BlobContainers.Select(c => (InfraSnapshot.UserPrincipalId, c, BlobDataContributor)));
        Assert.Equal(expected.Order(), actual);
    }

    [RequiresBicepFact]
    public void Without_a_user_principal_only_the_apps_hold_roles()
    {
        var whos = InfraSnapshot.Of(("principalId", "")).RoleAssignments.Select(a => a.Who).ToHashSet();
        Assert.DoesNotContain(InfraSnapshot.UserPrincipalId, whos);
        Assert.DoesNotContain("", whos);
    }

    [RequiresBicepFact]
    public void The_apps_pull_images_with_their_own_identity_and_nothing_else_does()
    {
        var pulls = InfraSnapshot.Default.RoleAssignments.Where(a => a.RoleId == AcrPull).ToList();
        Assert.All(pulls, a => Assert.Equal("registries", a.ScopeType));
        Assert.Equal(Contract.AppIds.Select(app => $"id-{app}").Order(), pulls.Select(a => a.Who).Order());
    }

    [RequiresBicepTheory]
    [InlineData("pubsub-bulk")]
    [InlineData("bindings")]
    public void Every_component_signs_in_as_its_apps_system_assigned_identity_so_no_app_holds_a_service_bus_right_twice(
        string model)
    {
        var snapshot = InfraSnapshot.Of(("messagingModel", model));
        Assert.All(snapshot.Components,
            component => Assert.False(component.Metadata.ContainsKey("azureClientId"), component.Name));
        var serviceBusHolders = snapshot.RoleAssignments.Where(a => a.ScopeType == "queues" && a.RoleId != Owner
            && a.Who != InfraSnapshot.UserPrincipalId).ToList();
        Assert.All(serviceBusHolders, a => Assert.EndsWith(" (system-assigned)", a.Who, StringComparison.Ordinal));
        Assert.Equal(serviceBusHolders.Count,
            serviceBusHolders.Select(a => (a.ScopeName, a.RoleId, a.Who)).Distinct().Count());
        Assert.All(snapshot.ContainerApps, app =>
        {
            Assert.Equal("SystemAssigned,UserAssigned", app.Resource["identity"]!["type"]!.GetValue<string>());
            Assert.Equal([$"id-{app.Name}", $"id-{app.Name}-scaler"],
                app.UserAssignedIdentities.Select(i => i[..i.LastIndexOf('-')]));
        });
    }

    [RequiresBicepFact]
    public void Application_insights_takes_entra_id_only_and_each_app_sends_as_its_own_identity()
    {
        var snapshot = InfraSnapshot.Default;
        var component = Assert.Single(snapshot.OfType("Microsoft.Insights/components"));
        Assert.True(component["properties"]!["DisableLocalAuth"]!.GetValue<bool>());

        var publishers = snapshot.RoleAssignments.Where(a => a.RoleId == MetricsPublisher).ToList();
        Assert.All(publishers, a => Assert.Equal("components", a.ScopeType));
        Assert.Equal(Contract.AppIds.Select(app => $"id-{app}").Order(), publishers.Select(a => a.Who).Order());
        Assert.All(snapshot.ContainerApps, app =>
            Assert.Equal(app.Env["AZURE_CLIENT_ID"],
                app.Env[OrderDistribution.ServiceDefaults.ServiceDefaultsExtensions.ManagedIdentityClientIdKey.Replace(
                ":", "__", StringComparison.Ordinal)]));

        // The sidecars' exporter takes only an instrumentation key, which Application Insights now refuses.
        var environment = Assert.Single(snapshot.OfType("Microsoft.App/managedEnvironments"));
        Assert.Null(environment["properties"]!["daprAIConnectionString"]);
    }

    [RequiresBicepFact]
    public void The_registry_keeps_the_mode_in_which_acr_pull_and_push_are_honoured()
    {
        var registry = Assert.Single(InfraSnapshot.Default.OfType("Microsoft.ContainerRegistry/registries"));
        Assert.Equal("LegacyRegistryPermissions", registry["properties"]!["roleAssignmentMode"]!.GetValue<string>());
    }

    [RequiresBicepTheory]
    [InlineData("", null)]
    [InlineData("ServicePrincipal", "ServicePrincipal")]
    [InlineData("User", "User")]
    public void The_users_role_assignments_take_the_principal_type_given_and_else_leave_it_to_arm(string given,
        string? expected)
    {
        // azd sets no AZURE_PRINCIPAL_TYPE: a guessed User would make ARM refuse them for a service principal (CI).
        Assert.Equal("${AZURE_PRINCIPAL_TYPE}", MainBicepTests.MainParameters()["principalType"]);
        var assignments = InfraSnapshot.Of(("principalType", given)).OfType("Microsoft.Authorization/roleAssignments")
            .Where(r => r["properties"]!["principalId"]!.GetValue<string>() == InfraSnapshot.UserPrincipalId)
            .ToList();
        // Send on the ingress queue, receive on the dead-letter queue, and one role per container.
        Assert.Equal(2 + Contract.BlobContainers.Length, assignments.Count);
        Assert.All(assignments, a => Assert.Equal(expected, a["properties"]!["principalType"]?.GetValue<string>()));
    }
}
