using System.Text.Json.Nodes;

namespace OrderDistribution.Deployment.Tests;

/// <summary>
/// The azd environment azd deploy builds infra/&lt;service&gt;.bicepparam in: main.bicep's settings for the app
/// (SERVICE_&lt;NAME&gt;_APP, here with fake resource ids), the image just pushed and Application Insights' name.
/// </summary>
internal static class AzdDeployEnvironment
{
    private const string Identities =
        "/subscriptions/s/resourceGroups/rg-fake/providers/Microsoft.ManagedIdentity/userAssignedIdentities";

    /// <summary>NAME=VALUE pairs, as <c>env</c> takes them.</summary>
    public static string[] Of(string service, string image)
    {
        var prefix = $"SERVICE_{service.Replace('-', '_').ToUpperInvariant()}";
        var settings = new JsonObject
        {
            ["location"] = InfraSnapshot.Location,
            ["tags"] = new JsonObject { ["azd-env-name"] = "fake" },
            ["serviceName"] = service,
            ["daprAppId"] = service,
            ["environmentId"] =
                "/subscriptions/s/resourceGroups/rg-fake/providers/Microsoft.App/managedEnvironments/cae-fake",
            ["registryServer"] = "crfake.azurecr.io",
            ["identityId"] = $"{Identities}/id-fake",
            ["identityClientId"] = "00000000-0000-0000-0000-0000000000c1",
            ["scalerIdentityId"] = $"{Identities}/id-scaler-fake",
            ["serviceBusNamespaceName"] = "sb-fake",
            ["scalePollingIntervalSeconds"] = 10,
            ["scaleCooldownPeriodSeconds"] = 300,
            ["scaleQueueName"] = "q-order-ingress",
            ["daprMaxConcurrency"] = 0,
            ["daprLogLevel"] = "info",
            ["env"] = new JsonArray(new JsonObject { ["name"] = "Messaging__Model", ["value"] = "pubsub-bulk" }),
        };
        return [$"{prefix}_APP={settings.ToJsonString()}", $"{prefix}_IMAGE_NAME={image}",
            "APPLICATIONINSIGHTS_NAME=appi-fake"];
    }
}
