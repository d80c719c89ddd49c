using OrderDistribution.LoadTool.Generation;
using OrderDistribution.TestSupport;

namespace OrderDistribution.LoadTool.Tests.Commands;

/// <summary>
/// Every file the tool will write is checked before it starts, and every file it reads is refused, naming it, when it
/// holds nothing it can use.
/// </summary>
public sealed class FileTests : IDisposable
{
    private readonly TempFolder _folder = new("order-load-files");

    /// <summary>Nothing listens there: a command that got as far as storage would exit 3, not 2.</summary>
    private readonly string _nowhere = Azurite.ConnectionStringFor(Azurite.FreePort());

    public static TheoryData<string[], string> CommandsAndTheFileTheyWrite() => new()
    {
        { ["run", "--results", "{file}/LOG.jsonl"], "--results" },
        { ["run", "--state", "{file}/schedule.json"], "--state" },
        { ["run", "--orders", "{file}/orders.json"], "--orders" },
        { ["run", "--results", "{folder}"], "--results" },
        { ["in-process", "--results", "{file}/LOG.jsonl"], "--results" },
        { ["ceiling", "--results", "{file}/deeper/LOG.jsonl"], "--results" },
        { ["generate", "--orders", "{folder}"], "--orders" },
        { ["schedule", "--state", "{folder}"], "--state" },
        { ["report", "{folder}/LOG.jsonl", "--output", "{file}/report.md"], "--output" },
    };

    [Theory]
    [MemberData(nameof(CommandsAndTheFileTheyWrite))]
    public async Task A_path_the_command_cannot_write_is_refused_in_one_line_before_anything_happens(string[] args,
        string option)
    {
        var file = Path.Combine(_folder.Path, "a-file");
        await File.WriteAllTextAsync(file, "not a folder");
        var before = Directory.GetFileSystemEntries(_folder.Path, "*", SearchOption.AllDirectories).Order().ToList();
        var cli = new Cli();

        // report reads no store: it takes no --storage.
        string[] store = args[0] == "report" ? [] : ["--storage", _nowhere];
        var exit = await cli.RunAsync(
            [.. args.Select(a => a.Replace("{file}", file).Replace("{folder}", _folder.Path)), .. store]);

        Assert.True(exit == ExitCodes.BadInput, cli.Output);
        var line = Assert.Single(cli.Output.Split('\n', StringSplitOptions.RemoveEmptyEntries));
        Assert.StartsWith($"{option} ", line, StringComparison.Ordinal);
        Assert.Contains(
            args.Contains("{folder}") ? "a folder, where a file is wanted" : $"{file} is a file, not a folder", line,
            StringComparison.Ordinal);
        Assert.Equal(before,
            Directory.GetFileSystemEntries(_folder.Path, "*", SearchOption.AllDirectories).Order().ToList());
    }

    [Theory]
    [InlineData("garbage")]
    [InlineData("")]
    [InlineData("{}")]
    public async Task A_schedule_record_that_is_none_is_refused_naming_the_file_even_with_a_scheduled_time(
        string content)
    {
        var orders = Path.Combine(_folder.Path, "orders.json");
        var state = Path.Combine(_folder.Path, "schedule.json");
        await OrderFile.WriteAsync(orders, OrderSet.ValidOnly(OrderGenerator.Generate(10, seed: 1)), default);
        await File.WriteAllTextAsync(state, content);
        var cli = new Cli();

        var exit = await cli.RunAsync("watch", "--orders", orders, "--state", state, "--scheduled-at",
            "2026-01-01T00:00:00Z", "--storage", _nowhere);

        Assert.True(exit == ExitCodes.BadInput, cli.Output);
        Assert.StartsWith($"{state} is not a schedule record", cli.Output, StringComparison.Ordinal);
        Assert.DoesNotContain("   at ", cli.Output, StringComparison.Ordinal);
    }

    [Theory]
    [InlineData("schedule", """{ "Format": 2, "Orders": [] }""")]
    [InlineData("watch", """{ "Format": 2, "Burst": 483920, "Orders": [] }""")]
    public async Task An_orders_file_without_an_order_is_refused_naming_the_file(string command, string content)
    {
        var orders = Path.Combine(_folder.Path, "orders.json");
        await File.WriteAllTextAsync(orders, content);
        var cli = new Cli();

        string[] when = command == "watch" ? ["--scheduled-at", "2026-01-01T00:00:00Z"] : [];
        var exit = await cli.RunAsync(
            [command, "--orders", orders, "--state", Path.Combine(_folder.Path, "schedule.json"), .. when, "--storage",
            _nowhere]);

        Assert.True(exit == ExitCodes.BadInput, cli.Output);
        Assert.StartsWith($"{orders}: The orders file holds no valid order", cli.Output, StringComparison.Ordinal);
    }

    [Theory]
    [InlineData(0)]
    [InlineData(3)]
    [InlineData(7)]
    public async Task A_fault_in_an_orders_file_is_named_at_the_order_it_is_in(int broken)
    {
        var orders = Path.Combine(_folder.Path, "orders.json");
        await OrderFile.WriteAsync(orders, OrderSet.ValidOnly(OrderGenerator.Generate(10, seed: 1)), default);
        var text = await File.ReadAllTextAsync(orders);
        var (json, field) = (System.Text.Json.Nodes.JsonNode.Parse(text)!, "Delivery");
        json[OrdersKey(json)]![broken]![field] = "by-pigeon";
        await File.WriteAllTextAsync(orders, json.ToJsonString());
        var cli = new Cli();

        var exit = await cli.RunAsync("schedule", "--orders", orders,
            "--state", Path.Combine(_folder.Path, "schedule.json"),
            "--storage", _nowhere);

        Assert.True(exit == ExitCodes.BadInput, cli.Output);
        Assert.Contains($"$.Orders[{broken}]", cli.Output, StringComparison.Ordinal);
        Assert.StartsWith(orders, cli.Output, StringComparison.Ordinal);
    }

    public void Dispose() => _folder.Dispose();

    private static string OrdersKey(System.Text.Json.Nodes.JsonNode json) =>
        json.AsObject().Select(p => p.Key).Single(k => k.Equals("Orders", StringComparison.OrdinalIgnoreCase));
}
