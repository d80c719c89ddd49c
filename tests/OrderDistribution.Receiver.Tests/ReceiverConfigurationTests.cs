using System.Net.Http.Json;
using System.Text.Json;
using Microsoft.Extensions.Options;
using OrderDistribution.TestSupport;

namespace OrderDistribution.Receiver.Tests;

public sealed class ReceiverConfigurationTests
{
    private static readonly string Unused = Azurite.ConnectionStringFor(1);

    [Theory]
    [InlineData("express")]
    [InlineData("standard")]
    public async Task Each_instance_subscribes_to_its_own_queue(string instance)
    {
        using var app = new ReceiverFactory(Unused, instance);

        var subscription = Assert.Single(
            await app.CreateClient().GetFromJsonAsync<JsonElement[]>("/dapr/subscribe") ?? []);

        Assert.Equal($"q-order-{instance}", subscription.GetProperty("topic").GetString());
        Assert.Equal($"/q-order-{instance}-bulk", SubscriptionAnswer.RouteOf(subscription));
        Assert.Equal("true", subscription.GetProperty("metadata").GetProperty("rawPayload").GetString());
    }

    [Theory]
    [InlineData("", "INSTANCE")]
    [InlineData("overnight", "INSTANCE")]
    public void An_unknown_instance_stops_the_app_at_start_saying_INSTANCE_is_wrong(string instance, string named)
    {
        var error = Assert.IsType<OptionsValidationException>(
            AppStart.FailureOf("express", ("INSTANCE", instance), ("Storage:ConnectionString", Unused)));

        Assert.Contains(named, error.Message, StringComparison.Ordinal);
    }

    [Theory]
    [InlineData("Receiver:Topic", "q-order-express", "Receiver:Queue")]
    [InlineData("Messaging:PubSubMode", "single", "Messaging:Model")]
    [InlineData("Messaging:DeliveryDeadline", "00:00:05", "Messaging:RequestDeadline")]
    public void A_renamed_key_still_set_stops_the_app_naming_the_key_that_replaced_it(
        string oldKey, string value, string newKey)
    {
        var error = Assert.IsType<OptionsValidationException>(
            AppStart.FailureOf("express", ("Storage:ConnectionString", Unused), (oldKey, value)));

        Assert.Contains($"{oldKey} is no longer read: set {newKey}", error.Message, StringComparison.Ordinal);
    }

    [Fact]
    public async Task The_queue_is_configurable_and_moves_the_subscription_and_routes_with_it()
    {
        using var app = new ReceiverFactory(Unused, "express", ("Receiver:Queue", "orders-fast"));

        var subscription = Assert.Single(
            await app.CreateClient().GetFromJsonAsync<JsonElement[]>("/dapr/subscribe") ?? []);

        Assert.Equal("orders-fast", subscription.GetProperty("topic").GetString());
        Assert.Equal("/orders-fast-bulk", SubscriptionAnswer.RouteOf(subscription));
    }

    [Fact]
    public void Missing_storage_settings_stop_the_app_at_start_naming_both_ways_to_set_them()
    {
        var error = Assert.IsType<OptionsValidationException>(
            AppStart.FailureOf("express", ("INSTANCE", "express"), ("Storage:ConnectionString", "")));

        Assert.Contains("Storage:ConnectionString", error.Message, StringComparison.Ordinal);
        Assert.Contains("Storage:AccountUrl", error.Message, StringComparison.Ordinal);
    }

    [Theory]
    [InlineData("Receiver:MaxConcurrentWrites", "0")]
    [InlineData("Storage:RequestTimeout", "00:00:00")]
    public void An_out_of_range_setting_stops_the_app_at_start_naming_it(string key, string value)
    {
        var error = Assert.IsType<OptionsValidationException>(AppStart.FailureOf("express",
            ("INSTANCE", "express"), ("Storage:ConnectionString", Unused), (key, value)));

        Assert.Contains(key, error.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void An_invalid_container_name_stops_the_app_at_start()
    {
        var error = Assert.IsType<OptionsValidationException>(AppStart.FailureOf("express",
            ("INSTANCE", "express"), ("Storage:ConnectionString", Unused), ("Receiver:Container", "Not_Valid")));

        Assert.Contains("Not_Valid", error.Message, StringComparison.Ordinal);
    }
}
