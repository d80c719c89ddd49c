using System.Globalization;
using System.Text;

namespace OrderDistribution.LoadTool.Reporting;

/// <summary>
/// The per-second series as CSV (<c>second,stored,cumulative</c>), written beside the results log and read back by
/// <c>report</c>.
/// </summary>
public static class SeriesCsv
{
    public static string Of(StoredSeries series)
    {
        var csv = new StringBuilder("second,stored,cumulative\n");
        var cumulative = 0;
        for (var second = 0; second < series.PerSecond.Count; second++)
        {
            cumulative += series.PerSecond[second];
            csv.Append(CultureInfo.InvariantCulture, $"{second},{series.PerSecond[second]},{cumulative}\n");
        }

        return csv.ToString();
    }

    /// <summary>
    /// Writes the series of <paramref name="row"/>'s run beside the results log, as <see
    /// cref="ResultsRow.CsvFileName()"/> names it.
    /// </summary>
    /// <returns>The file written.</returns>
    public static async Task<string> WriteBesideAsync(
        StoredSeries series, string resultsLog, ResultsRow row, CancellationToken cancellationToken)
    {
        var folder = Path.GetDirectoryName(Path.GetFullPath(resultsLog))!;
        Directory.CreateDirectory(folder);
        var path = Path.Combine(folder, row.CsvFileName()!);
        await File.WriteAllTextAsync(path, Of(series), cancellationToken);
        return path;
    }

    /// <summary>Reads a series <see cref="Of"/> wrote (the stored column; cumulative follows from it).</summary>
    /// <exception cref="InvalidDataException">The file is not such a series.</exception>
    public static async Task<StoredSeries> ReadAsync(string path, CancellationToken cancellationToken)
    {
        var lines = (await File.ReadAllLinesAsync(path, cancellationToken)).Where(l => l.Length > 0).ToList();
        if (lines.Count == 0 || lines[0] != "second,stored,cumulative")
        {
            throw new InvalidDataException(
                $"{path} is not a per-second series (its first line must be 'second,stored,cumulative').");
        }

        var perSecond = new List<int>();
        foreach (var line in lines.Skip(1))
        {
            var cells = line.Split(',');
            if (cells.Length != 3
                || !int.TryParse(cells[0], NumberStyles.None, CultureInfo.InvariantCulture, out var second)
                || second != perSecond.Count
                || !int.TryParse(cells[1], NumberStyles.None, CultureInfo.InvariantCulture, out var stored))
            {
                throw new InvalidDataException($"{path}: '{line}' is not the row of second {perSecond.Count}.");
            }

            perSecond.Add(stored);
        }

        return new StoredSeries(perSecond);
    }
}
