using System.Collections.Concurrent;
using System.Globalization;
using System.Text;
using System.Text.Json.Nodes;

namespace OrderDistribution.Deployment.Tests;

/// <summary>
/// What <c>azd provision</c> would deploy for one set of parameters: infra/main.bicep compiled by the real Bicep
/// compiler and evaluated by its <c>bicep snapshot</c> command (the ARM template engine, offline), which gives
/// every resource of every module with its properties computed, as ARM would send them. Only what exists
/// once deployed (principal ids, a registry's login server) stays an ARM expression.
/// </summary>
internal sealed class InfraSnapshot
{
    public const string SubscriptionId = "00000000-0000-0000-0000-00000000a2a2";
    public const string UserPrincipalId = "00000000-0000-0000-0000-0000000000ee";
    public const string EnvironmentName = "snapshot";
    public const string Location = "swedencentral";

    private static readonly ConcurrentDictionary<string, Lazy<InfraSnapshot>> Cache = new();

    private InfraSnapshot(JsonObject snapshot)
    {
        Resources = snapshot["predictedResources"]!.AsArray().Select(r => r!.AsObject()).ToList();
        Outputs = snapshot["outputs"]!.AsObject();
    }

    /// <summary>
    /// The deployment with main.parameters.json's defaults (pubsub, bulk, Standard) and a user principal.
    /// </summary>
    public static InfraSnapshot Default => Of();

    /// <summary>The deployment for these parameters; the rest as main.parameters.json's defaults.</summary>
    public static InfraSnapshot Of(params (string Name, object Value)[] parameters) =>
        Of(BicepCompiler.Path!, parameters);

    /// <summary>
    /// The deployment for these parameters as one tested Bicep release compiles and evaluates it
    /// (<see cref="BicepCompiler.Releases"/>).
    /// </summary>
    public static InfraSnapshot OnRelease(string release, params (string Name, object Value)[] parameters) =>
        Of(BicepCompiler.PathOfRelease(release), parameters);

    private static InfraSnapshot Of(string compiler, (string Name, object Value)[] parameters)
    {
        var given = new SortedDictionary<string, object>(StringComparer.Ordinal)
        {
            ["environmentName"] = EnvironmentName,
            ["location"] = Location,
            ["messagingModel"] = "pubsub-bulk",
            ["principalId"] = UserPrincipalId,
        };
        foreach (var (name, value) in parameters)
        {
            given[name] = value;
        }

        var text = new StringBuilder();
        foreach (var (name, value) in given)
        {
            text.Append(CultureInfo.InvariantCulture, $"param {name} = {Literal(value)}\n");
        }

        var key = $"{compiler}\n{text}";
        return Cache.GetOrAdd(key, _ => new Lazy<InfraSnapshot>(() => Take(compiler, text.ToString()))).Value;
    }

    public IReadOnlyList<JsonObject> Resources { get; }

    public JsonObject Outputs { get; }

    public string Output(string name) => Outputs[name]?.ToString()
        ?? throw new Xunit.Sdk.XunitException($"main.bicep has no output {name}");

    public IEnumerable<JsonObject> OfType(string type) => Resources.Where(r => r["type"]!.GetValue<string>() == type);

    public JsonObject Single(string type, string name) =>
        Assert.Single(OfType(type), r => LastSegment(r["name"]!.GetValue<string>()) == name);

    public IReadOnlyList<DeployedComponent> Components =>
        OfType("Microsoft.App/managedEnvironments/daprComponents").Select(r => new DeployedComponent(r)).ToList();

    public DeployedComponent Component(string name) =>
        Components.SingleOrDefault(c => c.Name == name)
            ?? throw new Xunit.Sdk.XunitException($"infra/ deploys no Dapr component {name}");

    public IReadOnlyList<DeployedApp> ContainerApps =>
        OfType("Microsoft.App/containerApps").Select(r => new DeployedApp(r)).ToList();

    public DeployedApp ContainerApp(string name) => Assert.Single(ContainerApps, a => a.Name == name);

    public IReadOnlyList<string> Queues =>
        OfType("Microsoft.ServiceBus/namespaces/queues").Select(r => LastSegment(r["name"]!.GetValue<string>()))
        .ToList();

    public IReadOnlyList<string> BlobContainers =>
        OfType("Microsoft.Storage/storageAccounts/blobServices/containers")
            .Select(r => LastSegment(r["name"]!.GetValue<string>())).ToList();

    public IReadOnlyList<RoleAssignment> RoleAssignments =>
        OfType("Microsoft.Authorization/roleAssignments").Select(RoleAssignment.From).ToList();

    public static string LastSegment(string name) => name[(name.LastIndexOf('/') + 1)..];

    private static string Literal(object value) => value switch
    {
        string s => $"'{s}'",
        bool b => b ? "true" : "false",
        int i => i.ToString(CultureInfo.InvariantCulture),
        _ => throw new ArgumentException($"no Bicep literal for {value.GetType().Name}", nameof(value)),
    };

    private static InfraSnapshot Take(string compiler, string parameters)
    {
        var folder = Directory.CreateTempSubdirectory("infra-snapshot-").FullName;
        try
        {
            // A .bicepparam names its template by a relative path.
            var main = Path.GetRelativePath(folder, Repo.PathOf(BicepCompiler.MainFile)).Replace('\\', '/');
            var file = Path.Combine(folder, "deployment.bicepparam");
            File.WriteAllText(file, $"using '{main}'\n{parameters}");
            var (exitCode, output) = Repo.Run(compiler, "snapshot", file, "--subscription-id", SubscriptionId,
                "--location", Location);
            var result = Path.Combine(folder, "deployment.snapshot.json");
            Assert.True(exitCode == 0 && File.Exists(result),
                $"bicep snapshot: exit {exitCode}\n{output}\n{parameters}");
            var snapshot = JsonNode.Parse(File.ReadAllText(result))!.AsObject();
            Assert.True(snapshot["diagnostics"] is not JsonArray { Count: > 0 },
                $"bicep snapshot diagnostics: {snapshot["diagnostics"]}");
            return new InfraSnapshot(snapshot);
        }
        finally
        {
            Directory.Delete(folder, recursive: true);
        }
    }
}
