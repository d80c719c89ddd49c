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
        var (template, text) = BuildWith(Path!, relative);
        Assert.True(text.Trim().Length == 0, $"bicep build {relative}:\n{text}");
        return template;
    }

    /// <summary>
    /// Compiles a Bicep file to ARM JSON with the compiler at <paramref name="compiler"/>: fails the test on an error,
    /// and gives the template with the compiler's warnings.
    /// </summary>
    public static (JsonObject Template, string Warnings) BuildWith(string compiler, string relative)
    {
        var output = System.IO.Path.Combine(System.IO.Path.GetTempPath(), $"bicep-{Guid.NewGuid():N}.json");
        try
        {
            var (exitCode, text) = Repo.Run(compiler, "build", relative, "--outfile", output);
            Assert.True(exitCode == 0, $"bicep build {relative}: exit {exitCode}\n{text}");
            return (JsonNode.Parse(File.ReadAllText(output))!.AsObject(), text);
        }
        finally
        {
            File.Delete(output);
        }
    }

    /// <summary>
    /// The Bicep releases the tests build infra/ with, oldest first: the newest (the project's PackageReference) and
    /// the older ones the csproj downloads beside it (OlderBicepReleases), each NuGet's linux-x64 package.
    /// </summary>
    public static IReadOnlyList<string> Releases { get; } = FindReleases();

    /// <summary>The compiler of one tested release, from NuGet's package folder.</summary>
    public static string PathOfRelease(string release) =>
        Executable(System.IO.Path.GetFullPath(System.IO.Path.Combine(PackageFolder!, "..", release, "tools", "bicep")));

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

    private static string? PackageFolder =>
        typeof(BicepCompiler).Assembly.GetCustomAttributes<AssemblyMetadataAttribute>()
            .SingleOrDefault(a => a.Key == "BicepPackageFolder")?.Value is { Length: > 0 } folder ? folder : null;

    private static List<string> FindReleases()
    {
        var older = typeof(BicepCompiler).Assembly.GetCustomAttributes<AssemblyMetadataAttribute>()
            .Single(a => a.Key == "OlderBicepReleases").Value!
            .Split(';', StringSplitOptions.RemoveEmptyEntries).Select(v => v.Trim('[', ']'));
        var newest = PackageFolder is { } folder ? [System.IO.Path.GetFileName(folder)] : Array.Empty<string>();
        return [.. older.Concat(newest).OrderBy(Version.Parse)];
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

        var binary = PackageFolder is { } folder ? System.IO.Path.Combine(folder, "tools", "bicep") : null;
        if (binary is null || !File.Exists(binary))
        {
            return null;
        }

        return Executable(binary);
    }

    // NuGet does not promise to keep the executable bit when it extracts a package.
    private static string Executable(string binary)
    {
        if (!OperatingSystem.IsWindows() && File.Exists(binary))
        {
            var mode = File.GetUnixFileMode(binary);
            if (!mode.HasFlag(UnixFileMode.UserExecute))
            {
                File.SetUnixFileMode(binary,
                    mode | UnixFileMode.UserExecute | UnixFileMode.GroupExecute | UnixFileMode.OtherExecute);
            }
        }

        return binary;
    }
}
