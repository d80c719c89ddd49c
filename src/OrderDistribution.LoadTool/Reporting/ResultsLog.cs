namespace OrderDistribution.LoadTool.Reporting;

/// <summary>One Markdown table row per run, so that runs can be compared (<c>report</c> reads them back).</summary>
public static class ResultsLog
{
    public static async Task AppendAsync(string path, ResultsRow row, CancellationToken cancellationToken)
    {
        Directory.CreateDirectory(Path.GetDirectoryName(Path.GetFullPath(path))!);
        var text = File.Exists(path) ? row.Format() : ResultsRow.Header + row.Format();
        await File.AppendAllTextAsync(path, text, cancellationToken);
    }

    /// <summary>Every row of the log, in order; lines that are no row are passed over.</summary>
    /// <exception cref="FileNotFoundException">There is no log at <paramref name="path"/>.</exception>
    public static async Task<IReadOnlyList<ResultsRow>> ReadAsync(string path, CancellationToken cancellationToken) =>
        File.Exists(path)
            ? (await File.ReadAllLinesAsync(path, cancellationToken))
                .Select(ResultsRow.TryParse).OfType<ResultsRow>().ToList()
            : throw new FileNotFoundException(
                $"No results log at {path}: run 'order-load run' (or scripts/compare-local.sh) first.", path);
}
