using System.Net.Http.Json;
using System.Text.Json;
using Microsoft.Extensions.Options;
using OrderDistribution.TestSupport;
using static OrderDistribution.TestSupport.SubscriptionAnswer;

namespace OrderDistribution.Distributor.Tests;

public sealed class SubscriptionAndConfigurationTests
{
    [Fact]
    public async Task In_the_pubsub_bulk_model_the_distributor_subscribes_to_the_ingress_in_bulk_with_raw_payload()
    {
        using var app = new DistributorFactory(("Messaging:MaxMessagesCount", "100"),
            ("Messaging:MaxAwaitDurationMs", "25"));

        var subscription = Assert.Single(await app.CreateClient().GetFromJsonAsync<JsonElement[]>("/dapr/subscribe")
            ?? []);

        Assert.Equal("order-pubsub", Field(subscription, "pubsubname").GetString());
        Assert.Equal("q-order-ingress", subscription.GetProperty("topic").GetString());
        Assert.Equal("/q-order-ingress-bulk", RouteOf(subscription));
        Assert.Equal("true", subscription.GetProperty("metadata").GetProperty("rawPayload").GetString());
        var bulk = subscription.GetProperty("bulkSubscribe");
        Assert.True(bulk.GetProperty("enabled").GetBoolean());
        Assert.Equal(100, bulk.GetProperty("maxMessagesCount").GetInt32());
        Assert.Equal(25, bulk.GetProperty("maxAwaitDurationMs").GetInt32());
    }

    [Fact]
    public async Task The_subscription_has_the_shape_a_real_sidecar_accepted()
    {
        using var app = new DistributorFactory();
        var accepted = JsonDocument.Parse(WireRecording.LoadText("app-subscribe.response.json")).RootElement[0];

        var ours = (await app.CreateClient().GetFromJsonAsync<JsonElement[]>("/dapr/subscribe"))![0];

        Assert.Equal(Keys(accepted), Keys(ours));
        Assert.Equal(Keys(accepted.GetProperty("bulkSubscribe")), Keys(ours.GetProperty("bulkSubscribe")));
    }

    [Fact]
    public async Task In_the_pubsub_single_model_the_subscription_routes_to_the_single_endpoint_without_bulk_settings()
    {
        using var app = new DistributorFactory(("Messaging:Model", "pubsub-single"));

        var subscription = Assert.Single(await app.CreateClient().GetFromJsonAsync<JsonElement[]>("/dapr/subscribe")
            ?? []);

        Assert.Equal("/q-order-ingress-single", RouteOf(subscription));
        Assert.False(subscription.TryGetProperty("bulkSubscribe", out _));
        Assert.Equal("true", subscription.GetProperty("metadata").GetProperty("rawPayload").GetString());
    }

    [Fact]
    public async Task Queue_and_binding_names_are_configurable_and_move_the_routes_with_them()
    {
        using var app = new DistributorFactory(("Distributor:IngressQueue", "orders-in"),
            ("Distributor:IngressInputBinding", "orders-in-binding"));
        var client = app.CreateClient();

        var subscription = Assert.Single(await client.GetFromJsonAsync<JsonElement[]>("/dapr/subscribe") ?? []);
        var binding = await client.PostAsync("/orders-in-binding", BulkRequest.Json(
            """{"OrderId":1,"OrderGuid":"3f2504e0-4f89-11d3-9a0c-0305e82c3301","Delivery":"Express"}"""));

        Assert.Equal("/orders-in-bulk", RouteOf(subscription));
        Assert.Equal(System.Net.HttpStatusCode.OK, binding.StatusCode);
    }

    [Fact]
    public async Task In_the_bindings_model_the_distributor_keeps_the_bulk_subscription_no_pub_sub_component_answers()
    {
        using var app = new DistributorFactory(("Messaging:Model", "bindings"));

        var subscription = Assert.Single(await app.CreateClient().GetFromJsonAsync<JsonElement[]>("/dapr/subscribe")
            ?? []);

        Assert.Equal("/q-order-ingress-bulk", RouteOf(subscription));
    }

    [Theory]
    [InlineData("bulk")]
    [InlineData("single")]
    [InlineData("Bulk")]
    public void A_model_not_spelled_one_of_the_three_ways_stops_the_app_naming_the_key_and_the_spellings(string value)
    {
        var error = Assert.IsType<OptionsValidationException>(
            AppStart.FailureOf(AppHost.Distributor, ("Messaging:Model", value)));

        Assert.Contains("Messaging:Model", error.Message, StringComparison.Ordinal);
        Assert.Contains("bindings, pubsub-single or pubsub-bulk", error.Message, StringComparison.Ordinal);
    }

    [Theory]
    [InlineData("Messaging:PubSubMode", "bulk", "Messaging:Model")]
    [InlineData("Messaging:DeliveryDeadline", "00:00:05", "Messaging:RequestDeadline")]
    [InlineData("Distributor:IngressTopic", "q-order-ingress", "Distributor:IngressQueue")]
    [InlineData("Distributor:ExpressTopic", "q-order-express", "Distributor:ExpressQueue")]
    [InlineData("Distributor:StandardTopic", "q-order-standard", "Distributor:StandardQueue")]
    public void A_renamed_key_still_set_stops_the_app_naming_the_key_that_replaced_it(string oldKey, string value,
        string newKey)
    {
        var error = Assert.IsType<OptionsValidationException>(AppStart.FailureOf(AppHost.Distributor, (oldKey, value)));

        Assert.Contains($"{oldKey} is no longer read: set {newKey}", error.Message, StringComparison.Ordinal);
    }

    [Theory]
    [InlineData("Messaging:MaxMessagesCount", "0", "MaxMessagesCount")]
    [InlineData("Messaging:MaxBulkPublishBytes", "10", "MaxBulkPublishBytes")]
    [InlineData("Distributor:ExpressQueue", "", "ExpressQueue")]
    [InlineData("Dapr:RequestTimeout", "00:00:00", "Dapr:RequestTimeout")]
    [InlineData("Dapr:MaxConcurrentRequests", "0", "Dapr:MaxConcurrentRequests")]
    [InlineData("Dapr:MaxRequestBodySizeMb", "2048", "Dapr:MaxRequestBodySizeMb")]
    public void Invalid_configuration_stops_the_app_at_start_with_a_message_naming_the_setting(string key, string value,
        string named)
    {
        var error = Assert.IsType<OptionsValidationException>(AppStart.FailureOf(AppHost.Distributor, (key, value)));

        Assert.Contains(named, error.Message, StringComparison.Ordinal);
    }

    [Fact]
    public async Task Readiness_follows_the_sidecar_while_liveness_stays_up()
    {
        await using var sidecar = await EmulatedSidecar.StartRecordingAsync();
        using var app = new DistributorFactory(
            ("DAPR_HTTP_ENDPOINT", sidecar.Address.ToString()))
        { OverEmulator = true };
        var client = app.CreateClient();

        await Eventually.StatusAsync(client, "/health", System.Net.HttpStatusCode.OK);
        sidecar.OutboundHealthStatus = 500;
        await Eventually.StatusAsync(client, "/health", System.Net.HttpStatusCode.ServiceUnavailable);
        Assert.Equal("Healthy", await client.GetStringAsync("/alive"));
        sidecar.OutboundHealthStatus = 204;
        await Eventually.StatusAsync(client, "/health", System.Net.HttpStatusCode.OK);
        Assert.Contains(app.Logs.Lines, l => l.Message.StartsWith("Not ready: Dapr sidecar", StringComparison.Ordinal));
    }

    [Fact]
    public async Task With_no_sidecar_from_the_start_the_distributor_is_live_but_not_ready_and_says_so()
    {
        using var app = new DistributorFactory(
            ("DAPR_HTTP_ENDPOINT", $"http://127.0.0.1:{Azurite.FreePort()}"))
        { OverEmulator = true };
        var client = app.CreateClient();

        await Eventually.StatusAsync(client, "/health", System.Net.HttpStatusCode.ServiceUnavailable);
        Assert.Equal("Healthy", await client.GetStringAsync("/alive"));
        await Eventually.TrueAsync(() =>
            app.Logs.Lines.Any(l => l.Message.StartsWith("Not ready: Dapr sidecar", StringComparison.Ordinal)));
    }

    [Theory]
    [InlineData("DAPR_HTTP_ENDPOINT", "not a url")]
    [InlineData("DAPR_HTTP_ENDPOINT", "ftp://127.0.0.1:3500")]
    [InlineData("DAPR_HTTP_PORT", "http")]
    public void A_bad_sidecar_address_stops_the_app_with_a_message_naming_the_variable(string variable, string value)
    {
        var error = Assert.IsType<InvalidOperationException>(
            AppStart.FailureOf(AppHost.Distributor, (variable, value)));

        Assert.Contains(variable, error.Message, StringComparison.Ordinal);
    }

    [Theory]
    [InlineData("Messaging:RequestDeadline", "00:00:00", "RequestDeadline")]
    [InlineData("Messaging:RequestDeadline", "00:02:00", "RequestDeadline")]
    [InlineData("Messaging:MaxBulkPublishBytes", "2000000", "MaxBulkPublishBytes")]
    public void Out_of_range_messaging_settings_stop_the_app_naming_the_setting(string key, string value, string named)
    {
        var error = Assert.IsType<OptionsValidationException>(AppStart.FailureOf(AppHost.Distributor, (key, value)));

        Assert.Contains(named, error.Message, StringComparison.Ordinal);
    }
}
