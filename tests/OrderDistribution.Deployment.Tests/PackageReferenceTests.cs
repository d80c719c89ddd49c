using System.Reflection;
using System.Text.Json;

namespace OrderDistribution.Deployment.Tests;

/// <summary>
/// The packages the apps' projects reference against the code: each is one that code compiles against, so that no
/// package the code no longer uses is still restored, shipped and kept up to date.
/// </summary>
public sealed class PackageReferenceTests
{
    [Fact]
    public void Every_package_the_apps_projects_reference_is_used_by_their_code()
    {
        // The compiler keeps only the assemblies the code uses among an assembly's references.
        var projects = Directory.EnumerateFiles(AppContext.BaseDirectory, "OrderDistribution.*.dll")
            .Select(path => Path.GetFileNameWithoutExtension(path))
            .Where(name => Directory.Exists(Repo.PathOf($"src/{name}")))
            .ToList();
        var used = projects
            .SelectMany(name =>
                Assembly.LoadFrom(Path.Combine(AppContext.BaseDirectory, $"{name}.dll")).GetReferencedAssemblies())
            .Select(reference => reference.Name)
            .ToHashSet(StringComparer.OrdinalIgnoreCase);

        var unused = projects
            .SelectMany(name => DirectPackages(name).Select(package => (name, package.Name, package.Assemblies)))
            .Where(package => package.Assemblies.Count > 0
                && !package.Assemblies.Any(assembly => used.Contains(assembly)
                    || ForwardsInto(assembly).Any(used.Contains)))
            .Select(package => $"{package.name}: {package.Name}")
            .ToList();

        Assert.Contains("OrderDistribution.ServiceDefaults", projects);
        Assert.True(unused.Count == 0, $"referenced, but no code uses them: {string.Join(", ", unused)}");
    }

    /// <summary>
    /// The assemblies a package's assembly hands its types on to (Azure.Identity's credentials live in Azure.Core):
    /// code that uses them references those.
    /// </summary>
    private static IEnumerable<string> ForwardsInto(string assembly)
    {
        try
        {
            return [.. Assembly.Load(assembly).GetForwardedTypes().Select(type => type.Assembly.GetName().Name ?? "")];
        }
        catch (Exception e) when (e is FileNotFoundException or ReflectionTypeLoadException)
        {
            return [];
        }
    }

    /// <summary>
    /// A project's own package references and the assemblies each gives the code to compile against, from the
    /// restore's assets file.
    /// </summary>
    private static IEnumerable<(string Name, IReadOnlyList<string> Assemblies)> DirectPackages(string project)
    {
        using var assets = JsonDocument.Parse(File.ReadAllText(Repo.PathOf($"src/{project}/obj/project.assets.json")));
        var root = assets.RootElement;
        var (framework, dependencies) = root.GetProperty("project").GetProperty("frameworks").EnumerateObject()
            .Select(f => (f.Name, f.Value.TryGetProperty("dependencies", out var d) ? d : default))
            .Single();
        if (dependencies.ValueKind != JsonValueKind.Object)
        {
            yield break;
        }

        var libraries = root.GetProperty("targets").GetProperty(framework).EnumerateObject().ToList();
        foreach (var package in dependencies.EnumerateObject())
        {
            var library = libraries.Single(l =>
                l.Name.StartsWith($"{package.Name}/", StringComparison.OrdinalIgnoreCase));
            IReadOnlyList<string> assemblies = library.Value.TryGetProperty("compile", out var compile)
                ? [.. compile.EnumerateObject().Select(c => Path.GetFileName(c.Name))
                    .Where(file => file.EndsWith(".dll", StringComparison.OrdinalIgnoreCase))
                    .Select(Path.GetFileNameWithoutExtension)
                    .OfType<string>()]
                : [];
            yield return (package.Name, assemblies);
        }
    }
}
