using Spectre.Console;

namespace OrderDistribution.RealParts.Tests;

/// <summary>
/// order-load as the real-parts tests run it: every command they give takes the files the fixture adds.
/// </summary>
[Trait("Category", "RealParts")]
public sealed class OrderLoadTests
{
    [Theory]
    [InlineData("run", "--count", "10", "--model", "bindings", "--sidecar", "http://127.0.0.1:3500")]
    [InlineData("generate", "--count", "10", "--seed", "26")]
    [InlineData("watch", "--scheduled-at", "2026-01-01T00:00:00Z", "--timeout", "180")]
    [InlineData("clear")]
    public void Each_command_the_tests_give_parses_with_the_storage_and_files_the_fixture_adds(params string[] command)
    {
        using var load = new OrderLoad("UseDevelopmentStorage=true");

        var parsed = LoadToolCommands.Build(AnsiConsole.Console).Parse(load.ArgumentsOf(command));

        Assert.Empty(parsed.Errors.Select(e => e.Message));
    }

    [Fact]
    public async Task Generate_as_the_broker_header_test_gives_it_writes_the_orders_file_and_exits_0()
    {
        using var load = new OrderLoad("UseDevelopmentStorage=true");

        var generated = await load.RunAsync("generate", "--count", "1000", "--seed", "26");

        Assert.True(generated.ExitCode == 0, generated.Output);
        var orders = await OrderFile.ReadSetAsync(load.OrdersFile, TestContext.Current.CancellationToken);
        Assert.Equal(1_000, orders.Orders.Count);
    }
}
