namespace OrderDistribution.Deployment.Tests;

/// <summary>scripts/lib/load-tool.sh: the load tool as the scripts run it.</summary>
public sealed class LoadToolScriptTests
{
    private const string Assignment = "load_tool_dll=\"$ROOT/";

    /// <summary>Where, from the repository root, the scripts run the tool from.</summary>
    public static string ScriptedBuild()
    {
        var line = File.ReadLines(Repo.PathOf("scripts/lib/load-tool.sh"))
            .Single(l => l.StartsWith(Assignment, StringComparison.Ordinal));
        return line[Assignment.Length..^1];
    }

    [Fact]
    public void The_scripts_run_the_load_tool_from_where_its_Release_build_leaves_it()
    {
        var (exitCode, output) = Repo.Run("dotnet", "msbuild",
            "src/OrderDistribution.LoadTool/OrderDistribution.LoadTool.csproj", "-p:Configuration=Release",
            "-getProperty:TargetPath");

        Assert.True(exitCode == 0, output);
        Assert.Equal(output.Trim(), Repo.PathOf(ScriptedBuild()));
    }
}
