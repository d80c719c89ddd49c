namespace OrderDistribution.Deployment.Tests;

/// <summary>
/// scripts/preflight.sh (in azd's preprovision hook) with the real Bicep compiler and az answering what ARM's provider
/// registry would: the API versions it checks are those of the compiled template, each against the region.
/// </summary>
public class PreflightTests
{
    [RequiresBicepFact]
    public void A_region_offering_every_type_at_the_templates_api_version_and_the_tier_passes_in_one_line()
    {
        using var azure = Offering(Used());

        var (exitCode, output) = Preflight(azure);

        Assert.True(exitCode == 0, output);
        Assert.Equal(
            $"preflight: region eastus offers the {Used().Count} resource types at the API versions infra/ uses, and " +
            $"Service Bus Standard", output.Trim());
    }

    [RequiresBicepFact]
    public void A_type_the_region_lacks_at_the_templates_api_version_is_named_with_its_version_and_the_region()
    {
        // The version comes from the compiled template: the region offering only an older one fails the check.
        var used = Used();
        var (type,
            version) = used.First(u => u.Type == "Microsoft.App/managedEnvironments/daprComponents/resiliencyPolicies");
        var offered = used.Select(u => u.Type == type ? (u.Type, "2025-01-01") : u).ToList();
        using var azure = Offering(offered);

        var (exitCode, output) = Preflight(azure);

        Assert.True(exitCode == 1, output);
        Assert.Equal(
            $"preflight: {type} does not offer API version {version} (region eastus; newest offered: 2025-01-01)",
            output.Trim());
    }

    [RequiresBicepFact]
    public void A_type_not_rolled_out_to_the_region_is_named()
    {
        using var azure = Offering(Used(), missingIn: "Microsoft.ServiceBus/namespaces/queues");

        var (exitCode, output) = Preflight(azure);

        Assert.True(exitCode == 1, output);
        Assert.Equal("preflight: Microsoft.ServiceBus/namespaces/queues@2026-01-01 is not offered in region eastus",
            output.Trim());
    }

    [RequiresBicepFact]
    public void A_service_bus_tier_the_region_does_not_offer_is_named()
    {
        using var azure = Offering(Used()).SetAzdValue("SERVICE_BUS_SKU", "Premium")
            .Respond("sku/Premium/regions", "West Europe\nSweden Central");

        var (exitCode, output) = Preflight(azure, "SERVICE_BUS_SKU=Premium");

        Assert.True(exitCode == 1, output);
        Assert.Equal(
            "preflight: Service Bus Premium (Microsoft.ServiceBus/namespaces, SERVICE_BUS_SKU) is not offered in " +
            "region eastus", output.Trim());
    }

    [RequiresBicepFact]
    public void A_child_type_its_provider_does_not_list_is_one_warning_line_and_the_provision_goes_on()
    {
        // Whether a provider lists its child types is not documented: the preflight cannot tell, so it does not block.
        var unlisted = new[]
        {
            "Microsoft.App/managedEnvironments/daprComponents/resiliencyPolicies",
            "Microsoft.Storage/storageAccounts/blobServices/containers",
        };
        var used = Used();
        using var azure = Offering(used.Where(u => !unlisted.Contains(u.Type)));

        var (exitCode, output) = Preflight(azure);

        Assert.True(exitCode == 0, output);
        Assert.Equal([
            "preflight: warning: cannot tell whether region eastus offers " + string.Join(", ", unlisted) +
                ": their providers do not list these child types, not checked",
            $"preflight: region eastus offers the {used.Count - 2} resource types at the API versions infra/ uses, " +
                "and Service Bus Standard",
        ], output.Trim().Split('\n'));
    }

    [RequiresBicepFact]
    public void A_top_level_type_its_provider_does_not_list_stops_the_provision()
    {
        var used = Used();
        using var azure = Offering(used.Where(u => u.Type != "Microsoft.App/containerApps"));

        var (exitCode, output) = Preflight(azure);

        Assert.True(exitCode == 1, output);
        Assert.Equal(
            "preflight: Microsoft.App/containerApps is not a resource type this subscription knows (API version " +
            $"{used.Single(u => u.Type == "Microsoft.App/containerApps").Version}, region eastus)", output.Trim());
    }

    [RequiresBicepFact]
    public void A_provider_or_tier_it_cannot_read_is_a_warning_line_and_the_provision_goes_on()
    {
        using var azure = Offering(Used(), azure: new FakeAzure().Fail("--namespace Microsoft.ServiceBus ", "throttled")
            .Fail("sku/Standard/regions", "throttled"));

        var (exitCode, output) = Preflight(azure);

        Assert.True(exitCode == 0, output);
        var lines = output.Trim().Split('\n');
        Assert.Equal("preflight: warning: could not read provider Microsoft.ServiceBus, its types are not checked: " +
            "ERROR: throttled", lines[0]);
        Assert.Equal("preflight: warning: could not read the regions of Service Bus Standard, not checked: " +
            "ERROR: throttled", lines[1]);
        Assert.StartsWith("preflight: region eastus offers the ", lines[2], StringComparison.Ordinal);
        Assert.Equal(3, lines.Length);
    }

    [RequiresProgramFact("sh", "apt-get install dash")]
    public void Without_az_signed_in_it_says_it_checked_nothing_and_lets_the_provision_go_on()
    {
        using var azure = new FakeAzure().Fail("account show", "Please run 'az login' to setup account.");

        var (exitCode, output) = azure.Run("sh", ["scripts/preflight.sh"]);

        Assert.True(exitCode == 0, output);
        Assert.StartsWith("preflight: checked nothing: az is not signed in", output.Trim(), StringComparison.Ordinal);
    }

    /// <summary>Every resource type of the compiled infra/main.bicep with its API version.</summary>
    private static List<(string Type, string Version)> Used() =>
        BicepCompiler.Resources(BicepCompiler.Main)
            .Where(r => r["type"]?.GetValue<string>().Contains('/', StringComparison.Ordinal) == true
                && r["apiVersion"] is not null)
            .Select(r => (r["type"]!.GetValue<string>(), r["apiVersion"]!.GetValue<string>()))
            .Distinct().ToList();

    /// <summary>az answering that East US offers these types at these versions (but not <paramref name="missingIn"/>
    /// there), and Service Bus Standard.</summary>
    private static FakeAzure Offering(IEnumerable<(string Type, string Version)> offered, string? missingIn = null,
        FakeAzure? azure = null)
    {
        azure ??= new FakeAzure();
        foreach (var ns in offered.GroupBy(o => o.Type.Split('/')[0]))
        {
            var rows = ns.Select(o =>
            {
                var regions = o.Type == missingIn ? "West Europe" : "West Europe;East US";
                return $"{o.Type[(ns.Key.Length + 1)..]}\t{regions}\t2024-01-01;{o.Version}";
            });
            azure.Respond($"--namespace {ns.Key} ", string.Join('\n', rows));
        }

        return azure.Respond("sku/Standard/regions", "East US\nWest Europe");
    }

    private static (int ExitCode, string Output) Preflight(FakeAzure azure, params string[] environment) =>
        azure.Run("env", [$"BICEP={BicepCompiler.Path}", .. environment, "sh", "scripts/preflight.sh"]);
}
