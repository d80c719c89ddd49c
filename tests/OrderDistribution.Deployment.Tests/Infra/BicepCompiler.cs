using System.Reflection;
using System.Text.Json.Nodes;

namespace OrderDistribution.Deployment.Tests;

/// <summary>
/// The real Bicep compiler: a <c>bicep</c> on PATH first (any platform), else the linux-x64 binary that NuGet
/// restored for this project (Azure.Bicep.CommandLine.linux-x64).
/// </summary>
internal static class BicepCompiler
{
    public const string MainFile = "infra/main.bicep";

    private static readonly Lazy<JsonObject> MainTemplate = new(() => Build(MainFile));

    /// <summary>The compiler's path, or null with no compiler for this platform.</summary>
    public static string? Path { get; } = Find();

    public static string MissingReason =>
        "no Bicep compiler: none on PATH, and NuGet's Azure.Bicep.CommandLine.linux-x64 runs on Linux x64 only " +
        "(https://learn.microsoft.com/azure/azure-resource-manager/bicep/install)";

    /// <summary>infra/main.bicep compiled to its ARM JSON, once per test run.</summary>
    public static JsonObject Main => MainTemplate.Value;

    public static (int ExitCode, string Output) Run(params string[] arguments) =>
        Repo.Run(Path ?? throw new InvalidOperationException(MissingReason), arguments);

    /// <summary>Compiles a Bicep file to ARM JSON; fails the test on any error or warning.</summary>
    public static JsonObject Build(string relative)
    {
        var output = System.IO.Path.Combine(System.IO.Path.GetTempPath(), $"bicep-{Guid.NewGuid():N}.json");
        try
        {
            var (exitCode, text) = Run("build", relative, "--outfile", output);
            Assert.True(exitCode == 0 && text.Trim().Length == 0, $"bicep build {relative}: exit {exitCode}\n{text}");
            return JsonNode.Parse(File.ReadAllText(output))!.AsObject();
        }
        finally
        {
            File.Delete(output);
        }
    }

    /// <summary>Every resource of a compiled template, those of nested deployments (modules) included.</summary>
    public static IEnumerable<JsonObject> Resources(JsonObject template)
    {
        var resources = template["resources"] switch
        {
            JsonArray array => array.Select(r => r!.AsObject()),
            JsonObject symbolic => symbolic.Select(r => r.Value!.AsObject()),
            _ => [],
        };
        foreach (var resource in resources)
        {
            yield return resource;
            // A resource whose properties are one expression (a spread) holds no nested template.
            if (resource["properties"] is JsonObject { } properties && properties["template"] is JsonObject nested)
            {
                foreach (var inner in Resources(nested))
                {
                    yield return inner;
                }
            }
        }
    }

    private static string? Find()
    {
        if (Repo.FindOnPath("bicep") is { } onPath)
        {
            return onPath;
        }

        if (!OperatingSystem.IsLinux()
            || System.Runtime.InteropServices.RuntimeInformation.OSArchitecture
                != System.Runtime.InteropServices.Architecture.X64)
        {
            return null;
        }

        var folder = typeof(BicepCompiler).Assembly.GetCustomAttributes<AssemblyMetadataAttribute>()
            .SingleOrDefault(a => a.Key == "BicepPackageFolder")?.Value;
        var binary = string.IsNullOrEmpty(folder) ? null : System.IO.Path.Combine(folder, "tools", "bicep");
        if (binary is null || !File.Exists(binary))
        {
            return null;
        }

        // NuGet does not promise to keep the executable bit when it extracts a package.
        var mode = File.GetUnixFileMode(binary);
        if (!mode.HasFlag(UnixFileMode.UserExecute))
        {
            File.SetUnixFileMode(binary,
                mode | UnixFileMode.UserExecute | UnixFileMode.GroupExecute | UnixFileMode.OtherExecute);
        }

        return binary;
    }
}
