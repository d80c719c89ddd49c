using Microsoft.Extensions.Configuration;

namespace OrderDistribution.ServiceDefaults.Tests;

/// <summary>
/// A configuration file an app cannot read stops it as a wrong setting does (<see cref="SettingsCheck"/>): one line
/// naming the file and where it breaks, no exception.
/// </summary>
public sealed class SettingsCheckTests : IDisposable
{
    /// <summary>A comma missing after the Logging section: the reader stops at line 5 (LineNumber 4, from 0).</summary>
    private const string NotJson = """
        {
          "Logging": {
            "LogLevel": { "Default": "Information" }
          }
          "Readiness": { "Interval": "00:00:02" }
        }
        """;

    private readonly DirectoryInfo _contentRoot = Directory.CreateTempSubdirectory("settings-check-");

    [Fact]
    public void A_configuration_file_that_is_not_JSON_is_refused_in_one_line_naming_the_file_and_where_it_breaks()
    {
        var file = Path.Combine(_contentRoot.FullName, "appsettings.json");
        File.WriteAllText(file, NotJson);
        using var error = new StringWriter();

        var builder = SettingsCheck.CreateBuilderIfSettingsAreReadable(["--contentRoot", _contentRoot.FullName], error);

        Assert.Null(builder);
        var line = Assert.Single(error.ToString().Split('\n', StringSplitOptions.RemoveEmptyEntries));
        Assert.Contains(
            $"cannot start: Failed to load configuration from file '{file}'", line, StringComparison.Ordinal);
        Assert.Contains("LineNumber: 4", line, StringComparison.Ordinal);
        Assert.DoesNotContain("   at ", line, StringComparison.Ordinal);
    }

    [Fact]
    public void A_configuration_file_that_reads_gives_the_builder_its_settings()
    {
        File.WriteAllText(
            Path.Combine(_contentRoot.FullName, "appsettings.json"), """{ "Readiness": { "Interval": "00:00:03" } }""");
        using var error = new StringWriter();

        var builder = SettingsCheck.CreateBuilderIfSettingsAreReadable(["--contentRoot", _contentRoot.FullName], error);

        Assert.Equal("00:00:03", builder?.Configuration["Readiness:Interval"]);
        Assert.Equal("", error.ToString());
    }

    [Fact]
    public void The_builder_reads_its_configuration_files_without_watching_them()
    {
        File.WriteAllText(Path.Combine(_contentRoot.FullName, "appsettings.json"), "{}");

        var builder = SettingsCheck.CreateBuilderIfSettingsAreReadable(["--contentRoot", _contentRoot.FullName]);

        var files = ((IConfigurationBuilder)builder!.Configuration).Sources.OfType<FileConfigurationSource>().ToList();
        Assert.NotEmpty(files);
        Assert.All(files, file => Assert.False(file.ReloadOnChange, $"{file.Path} is watched"));
    }

    public void Dispose() => _contentRoot.Delete(recursive: true);
}
