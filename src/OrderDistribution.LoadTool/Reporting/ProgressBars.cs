using Spectre.Console;

namespace OrderDistribution.LoadTool.Reporting;

/// <summary>How a long step shows on the console: a progress bar, and its outage lines printed above it.</summary>
public static class ProgressBars
{
    /// <summary>
    /// Runs <paramref name="work"/> under a bar of <paramref name="total"/> steps (none: indeterminate).
    /// </summary>
    public static async Task<T> WithProgressAsync<T>(
        this IAnsiConsole console, string description, int? total,
        Func<IProgress<int>, IProgress<string?>, Task<T>> work) =>
        await console.Progress().AutoClear(false).StartAsync(async context =>
        {
            var task = context.AddTask(description, maxValue: total ?? 1);
            task.IsIndeterminate = total is null;
            var status = new Progress<string?>(text =>
                task.Description = text is null ? description : $"{description}: {Markup.Escape(text)}");
            var result = await work(new Progress<int>(done => task.Value = done), status);
            task.Description = description;
            task.Value = task.MaxValue;
            return result;
        });

    /// <summary>
    /// Prints each line it is told as a line of its own, at once (a storage outage's beginning and end).
    /// </summary>
    public static IProgress<string> Lines(this IAnsiConsole console) => new LinePrinter(console);

    private sealed class LinePrinter(IAnsiConsole console) : IProgress<string>
    {
        public void Report(string value) => console.MarkupLineInterpolated($"[yellow]{value}[/]");
    }
}
