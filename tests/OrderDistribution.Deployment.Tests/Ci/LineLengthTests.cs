namespace OrderDistribution.Deployment.Tests;

/// <summary>The code reads without scrolling: no source line is wider than the style allows.</summary>
public sealed class LineLengthTests
{
    private const int MaxLength = 120;

    [Theory]
    [InlineData("src")]
    [InlineData("tests")]
    public void No_source_line_is_over_120_characters(string folder)
    {
        var separator = Path.DirectorySeparatorChar;
        var files = Directory.GetFiles(Repo.PathOf(folder), "*.cs", SearchOption.AllDirectories)
            .Select(file => Path.GetRelativePath(Repo.Root, file))
            .Where(file => !file.Contains($"{separator}bin{separator}", StringComparison.Ordinal)
                && !file.Contains($"{separator}obj{separator}", StringComparison.Ordinal))
            .Order(StringComparer.Ordinal);

        var tooLong = files
            .SelectMany(file => Repo.Read(file).Split('\n')
                .Select((line, index) => (Line: line.TrimEnd('\r'), Number: index + 1))
                .Where(line => line.Line.Length > MaxLength)
                .Select(line => $"{file}:{line.Number} ({line.Line.Length})"))
            .ToList();

        Assert.True(tooLong.Count == 0,
            $"{tooLong.Count} lines in {folder} are over {MaxLength} characters:\n{string.Join('\n', tooLong)}");
    }
}
