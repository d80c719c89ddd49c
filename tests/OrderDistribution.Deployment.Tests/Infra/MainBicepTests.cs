using System.Text.Json;

namespace OrderDistribution.Deployment.Tests;

/// <summary>
/// infra/main.bicep's edges: the parameters azd gives it (main.parameters.json), its scope and its outputs.
/// </summary>
public class MainBicepTests
{
    [RequiresBicepFact]
    public void Main_parameters_json_names_every_parameter_main_bicep_declares_without_a_default()
    {
        var declared = BicepCompiler.Main["parameters"]!.AsObject();
        var given = MainParameters();

        foreach (var (name, parameter) in declared)
        {
            Assert.True(parameter!["defaultValue"] is not null || given.ContainsKey(name),
                $"main.parameters.json does not set {name}");
        }

        foreach (var name in given.Keys)
        {
            Assert.True(declared.ContainsKey(name),
                $"main.parameters.json sets {name}, which main.bicep does not declare");
        }
    }

    [Theory]
    [InlineData("environmentName", "${AZURE_ENV_NAME}")]
    [InlineData("location", "${AZURE_LOCATION}")]
    [InlineData("messagingModel", "${MESSAGING_MODEL=pubsub-bulk}")]
    [InlineData("maxMessagesCount", "${MAX_MESSAGES_COUNT=250}")]
    [InlineData("maxActiveMessages", "${MAX_ACTIVE_MESSAGES=250}")]
    [InlineData("maxConcurrentHandlers", "${MAX_CONCURRENT_HANDLERS=1}")]
    [InlineData("singleMaxActiveMessages", "${SINGLE_MAX_ACTIVE_MESSAGES=128}")]
    [InlineData("singleMaxConcurrentHandlers", "${SINGLE_MAX_CONCURRENT_HANDLERS=64}")]
    [InlineData("bindingConsumersPerQueue", "${BINDING_CONSUMERS_PER_QUEUE=4}")]
    [InlineData("serviceBusSku", "${SERVICE_BUS_SKU=Standard}")]
    [InlineData("serviceBusMessagingUnits", "${SERVICE_BUS_MESSAGING_UNITS=1}")]
    [InlineData("requestDeadlineSeconds", "${REQUEST_DEADLINE_SECONDS=10}")]
    [InlineData("tieredCompilation", "${TIERED_COMPILATION=false}")]
    [InlineData("requestSamplingPercentage", "${REQUEST_SAMPLING_PERCENTAGE=100}")]
    public void Main_parameters_json_maps_the_azd_variables(string parameter, string value) =>
        Assert.Equal(value, MainParameters().GetValueOrDefault(parameter));

    [RequiresBicepFact]
    public void Main_bicep_outputs_what_azd_and_the_scripts_need()
    {
        var outputs = InfraSnapshot.Default.Outputs.Select(o => o.Key).ToList();
        foreach (var name in new[]
                 {
                     "AZURE_RESOURCE_GROUP", "AZURE_CONTAINER_REGISTRY_ENDPOINT",
                         "AZURE_CONTAINER_APPS_ENVIRONMENT_NAME",
                     "SERVICEBUS_NAMESPACE", "SERVICEBUS_NAMESPACE_FQDN", "STORAGE_ACCOUNT_NAME",
                         "STORAGE_BLOB_ENDPOINT",
                     "APPLICATIONINSIGHTS_NAME", "LOG_ANALYTICS_WORKSPACE_ID", "DAPR_PLACEHOLDER_SCOPE",
                         "MAX_BULK_PUBLISH_BYTES",
                 })
        {
            Assert.Contains(name, outputs);
        }

        Assert.Equal(Contract.PlaceholderScope, InfraSnapshot.Default.Output("DAPR_PLACEHOLDER_SCOPE"));
    }

    [RequiresBicepFact]
    public void Main_bicep_targets_the_subscription_and_creates_the_resource_group()
    {
        Assert.Contains("subscriptionDeploymentTemplate", BicepCompiler.Main["$schema"]!.GetValue<string>(),
            StringComparison.Ordinal);
        var group = Assert.Single(InfraSnapshot.Default.OfType("Microsoft.Resources/resourceGroups"));
        Assert.Equal($"rg-{InfraSnapshot.EnvironmentName}", group["name"]!.GetValue<string>());
    }

    internal static Dictionary<string, string> MainParameters()
    {
        using var document = JsonDocument.Parse(Repo.Read("infra/main.parameters.json"));
        return document.RootElement.GetProperty("parameters").EnumerateObject()
            .ToDictionary(p => p.Name, p => p.Value.GetProperty("value").ToString());
    }
}
