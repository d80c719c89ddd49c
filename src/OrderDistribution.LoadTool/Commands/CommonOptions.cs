using System.CommandLine;
using OrderDistribution.Messaging;

namespace OrderDistribution.LoadTool.Commands;

/// <summary>
/// The options burst-record reads by these names, as text where it reads paths; every other command takes its options
/// from <see cref="LoadToolOptions"/>.
/// </summary>
internal static class CommonOptions
{
    /// <summary>The schedule record, for every burst-record subcommand.</summary>
    public static readonly Option<string> State = new Option<string>("--state")
    {
        Description = LoadToolOptions.State.Description,
        DefaultValueFactory = _ => Path.Combine("results", "last-schedule.json"),
        Recursive = true,
    }.Text("a file's path");

    public static readonly Option<string> Results = new Option<string>("--results")
    {
        Description = LoadToolOptions.Results.Description,
        DefaultValueFactory = _ => Path.Combine("results", "LOG.md"),
    }.Text("a file's path");

    public static Option<int> Count => LoadToolOptions.Count;

    public static Option<MessagingModel?> Model => LoadToolOptions.Model;

    public static MessagingModel ModelOf(ParseResult result) => LoadToolOptions.ModelOf(result);
}
