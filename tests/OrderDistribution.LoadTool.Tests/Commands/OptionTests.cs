using System.CommandLine;
using System.CommandLine.Help;
using OrderDistribution.LoadTool.Commands;
using OrderDistribution.Messaging;
using OrderDistribution.TestSupport;
using Spectre.Console;

namespace OrderDistribution.LoadTool.Tests.Commands;

/// <summary>
/// Every option of every command refuses a wrong value in one line that names it, before anything happens.
/// </summary>
public sealed class OptionTests
{
    private const string Namespace =
        "/subscriptions/00000000-1111-2222-3333-444444444444/resourceGroups/rg/providers/Microsoft.ServiceBus/" +
        "namespaces/sb";

    /// <summary>
    /// Every command (by its words: "azure-burst read") with every option it takes (its own and those of the commands
    /// above it that reach it), each with values it must refuse; a flag takes no value (a word after it is the next
    /// argument).
    /// </summary>
    public static TheoryData<string, string, string> EveryOptionWithABadValue()
    {
        var data = new TheoryData<string, string, string>();
        foreach (var (words, options) in Commands(LoadToolCommands.Build(AnsiConsole.Console), []))
        {
            foreach (var option in options)
            {
                if (option is HelpOption or VersionOption || option.ValueType == typeof(bool))
                {
                    continue;
                }

                foreach (var value in BadValuesFor(option))
                {
                    data.Add(words, option.Name, value);
                }
            }
        }

        return data;
    }

    /// <summary>
    /// Every command with an option that another command takes and it does not: the option alone, as a flag is given.
    /// </summary>
    public static TheoryData<string, string> EveryOptionOnACommandThatDoesNotTakeIt()
    {
        var data = new TheoryData<string, string>();
        var commands = Commands(LoadToolCommands.Build(AnsiConsole.Console), []).ToList();
        var every = commands.SelectMany(c => c.Options).Select(o => o.Name).Distinct().ToList();
        foreach (var (words, options) in commands)
        {
            foreach (var name in every.Except(options.SelectMany(o => o.Aliases.Prepend(o.Name))))
            {
                data.Add(words, name);
            }
        }

        return data;
    }

    /// <summary>
    /// The commands that run, below the root (a command with subcommands is only their group), each with the options it
    /// takes: its own and the recursive ones of the commands above it.
    /// </summary>
    private static IEnumerable<(string Words, List<Option> Options)> Commands(Command parent, List<Option> above,
        string words = "") =>
        parent.Subcommands.SelectMany(command =>
        {
            List<Option> reaching = [.. above, .. parent.Options.Where(o => o.Recursive)];
            return command.Subcommands.Count > 0
                ? Commands(command, reaching, $"{words}{command.Name} ")
                : [($"{words}{command.Name}", [.. command.Options, .. reaching])];
        });

    [Theory]
    [MemberData(nameof(EveryOptionWithABadValue))]
    public async Task Every_option_refuses_a_bad_value_in_one_line_naming_the_option_with_exit_2(string command,
        string option, string value)
    {
        var cli = new Cli();

        var exit = await cli.RunAsync([.. command.Split(' '), option, value]);

        var lines = Lines(cli.Output);
        Assert.True(exit == ExitCodes.BadInput, cli.Output);
        Assert.True(lines.Count == 1, cli.Output);
        Assert.StartsWith(option, lines[0], StringComparison.Ordinal);
        Assert.DoesNotContain("System.", lines[0], StringComparison.Ordinal);
        Assert.DoesNotContain("OrderDistribution.", lines[0], StringComparison.Ordinal);
        Assert.DoesNotContain("   at ", cli.Output, StringComparison.Ordinal);
    }

    [Theory]
    [MemberData(nameof(EveryOptionOnACommandThatDoesNotTakeIt))]
    public async Task An_option_the_command_does_not_take_is_refused_in_one_line_naming_it_with_exit_2(string command,
        string option)
    {
        var cli = new Cli();

        var exit = await cli.RunAsync([.. command.Split(' '), option]);

        Assert.True(exit == ExitCodes.BadInput, cli.Output);
        Assert.StartsWith($"{option} is not an option of {command}. See 'order-load {command} --help'.",
            Assert.Single(Lines(cli.Output)), StringComparison.Ordinal);
    }

    [Theory]
    [InlineData("report", "--storage", "UseDevelopmentStorage=true")]
    [InlineData("report", "--orders", "results/orders.json")]
    [InlineData("dead-letters", "--state", "results/last-schedule.json")]
    [InlineData("in-process", "--storage-account-url", "https://st.blob.core.windows.net")]
    [InlineData("azure-burst read", "--storage", "UseDevelopmentStorage=true")]
    public async Task An_option_of_another_command_is_refused_with_its_value_before_anything_happens(string command,
        string option, string value)
    {
        var cli = new Cli();

        var exit = await cli.RunAsync([.. command.Split(' '), option, value]);

        Assert.Equal(ExitCodes.BadInput, exit);
        Assert.StartsWith($"{option} is not an option of {command}.", Assert.Single(Lines(cli.Output)),
            StringComparison.Ordinal);
    }

    [Theory]
    [InlineData("run", "--target", "1")]
    [InlineData("run", "--start", "0")]
    public async Task An_enum_option_refuses_a_number_for_its_name(string command, string option, string value)
    {
        var cli = new Cli();

        Assert.Equal(ExitCodes.BadInput, await cli.RunAsync(command, option, value));

        Assert.StartsWith($"{option} takes ", Assert.Single(Lines(cli.Output)), StringComparison.Ordinal);
    }

    [Theory]
    [InlineData("in-process", "--count", "abc", "--count takes a whole number from 1 to 1000000, not 'abc'")]
    [InlineData("in-process", "--count", "1.5", "--count takes a whole number from 1 to 1000000, not '1.5'")]
    [InlineData("run", "--timeout", "99999999999", "--timeout takes a whole number from 1 to 86400 seconds")]
    [InlineData("run", "--max-bulk-bytes", "99999999999", "--max-bulk-bytes takes a whole number from")]
    [InlineData("run", "--seed", "abc", "--seed takes a whole number, not 'abc'")]
    [InlineData("run", "--target", "mars", "--target takes local or azure, not 'mars'")]
    [InlineData("run", "--invalid-rate", "abc", "--invalid-rate takes a share at least 0 and below 1")]
    [InlineData("ceiling", "--in-flight", "abc", "--in-flight takes a whole number from 1 to 1024")]
    public async Task The_program_refuses_a_value_it_cannot_read_in_one_line_not_a_stack_trace(
        string command, string option, string value, string line)
    {
        var (exit, lines) = await Cli.RunProgramAsync(command, option, value);

        Assert.Equal(ExitCodes.BadInput, exit);
        var only = Assert.Single(lines);
        Assert.StartsWith(line, only, StringComparison.Ordinal);
    }

    [Fact]
    public async Task A_service_bus_namespace_is_refused_for_a_local_burst_whose_queues_are_the_local_runs()
    {
        var cli = new Cli();

        Assert.Equal(ExitCodes.BadInput, await cli.RunAsync("run", "--servicebus-namespace-id", Namespace));

        Assert.StartsWith(
            "--servicebus-namespace-id is for --target azure: a local burst's queues are read from --processes.",
            Assert.Single(Lines(cli.Output)), StringComparison.Ordinal);
    }

    [Fact]
    public async Task An_unknown_command_is_named_first_and_alone()
    {
        var cli = new Cli();

        Assert.Equal(ExitCodes.BadInput, await cli.RunAsync("frobnicate"));

        var line = Assert.Single(Lines(cli.Output));
        Assert.StartsWith("'frobnicate' is not an order-load command", line, StringComparison.Ordinal);
        Assert.DoesNotContain("Required command", line, StringComparison.Ordinal);
    }

    [Fact]
    public async Task A_storage_connection_string_that_is_none_is_named_as_the_option_the_user_typed()
    {
        var cli = new Cli();

        Assert.Equal(ExitCodes.BadInput, await cli.RunAsync("clear", "--storage", "garbage"));

        Assert.StartsWith("--storage is not a storage connection string", Assert.Single(Lines(cli.Output)),
            StringComparison.Ordinal);
        Assert.DoesNotContain("Storage:ConnectionString", cli.Output, StringComparison.Ordinal);
    }

    [Fact]
    public async Task Output_to_a_pipe_is_neither_wrapped_nor_coloured()
    {
        using var folder = new TempFolder("order-load-");
        var orders = Path.Combine(folder.Path, new string('o', 60), "orders.json");

        var (exit, lines) = await Cli.RunProgramAsync("generate", "--count", "10", "--orders", orders);

        Assert.Equal(0, exit);
        var line = Assert.Single(lines);
        Assert.EndsWith($"into {orders}.", line, StringComparison.Ordinal);
        Assert.DoesNotContain('\u001b', line);
    }

    private static IEnumerable<string> BadValuesFor(Option option) => option.ValueType switch
    {
        var t when t == typeof(int) || t == typeof(int?) => ["abc", "1.5", "99999999999"],
        var t when t == typeof(double) => ["abc", "1.5"],
        var t when t == typeof(MessagingModel?) => ["kafka"],
        var t when t.IsEnum || Nullable.GetUnderlyingType(t)?.IsEnum == true => ["mars"],
        // Epoch seconds (date +%s).
        _ when option.Name is "--started" or "--ended" => ["abc", "1.5", "99999999999999"],
        var t when t == typeof(DateTimeOffset?) => ["abc"],
        // A path: none.
        var t when t == typeof(FileInfo) || t == typeof(DirectoryInfo) => [""],
        // A Service Bus namespace's resource id: not one, one of its queues', another resource's.
        var t when t == typeof(Azure.Core.ResourceIdentifier) =>
        [
            "abc", $"{Namespace}/queues/q-order-ingress",
            "/subscriptions/00000000-1111-2222-3333-444444444444/resourceGroups/rg/providers/Microsoft.Storage/" +
            "storageAccounts/st",
        ],
        // The broker of the bindings model's dead letters: no URI, another scheme's.
        _ when option.Name is "--rabbitmq" => ["127.0.0.1:5672", "http://127.0.0.1:5672/orders"],
        // An http(s) endpoint: no absolute URL, another scheme's.
        var t when t == typeof(Uri) => ["localhost:3501", "/v1.0", "amqp://127.0.0.1:5672"],
        // Replica counts read with az: "app=count ...".
        _ when option.Name is "--replicas-at-instant" or "--replicas-at-end" => ["distributor", "distributor=many"],
        // Metric values as az prints them take any text (record skips what is no number, in a line); an empty app
        // name or size is refused.
        var t when t == typeof(string[]) => option.Name is "--usage-nanocores" or "--working-set-bytes" ? [] : [""],
        var t when t == typeof(string) =>
            option.Name switch
            {
                "--tiered-compilation" => ["sometimes"],
                "--service-bus" => ["", "sb x.servicebus.windows.net", "https://sb-x.servicebus.windows.net"],
                _ => [""],
            },
        var t =>
            throw new InvalidOperationException(
            $"{option.Name} takes a {t.Name}: give this test a value it must refuse."),
    };

    private static List<string> Lines(string output) =>
        [.. output.Split('\n').Select(l => l.TrimEnd('\r')).Where(l => l.Trim().Length > 0)];
}
