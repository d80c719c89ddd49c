using System.Diagnostics;
using System.Text;
using System.Text.Json;
using Dapr.Client;
using Microsoft.Extensions.DependencyInjection;
using OrderDistribution.Contracts;
using OrderDistribution.Messaging.Outbound;
using OrderDistribution.TestSupport;

namespace OrderDistribution.Messaging.Tests.Outbound;

/// <summary>
/// What reaches a broker message through an output binding, on every runtime from 1.14 to the newest: the emulator
/// builds the binding's metadata as each runtime does (<see cref="DaprRuntimeProfile"/>).
/// </summary>
[Collection(nameof(UntracedCalls))]
public sealed class SidecarOutputBindingsTests
{
    public static TheoryData<string> Runtimes() => new(DaprRuntimeProfile.All.Select(r => r.Version));

    [Theory]
    [MemberData(nameof(Runtimes))]
    public async Task No_transport_header_or_token_reaches_the_binding_and_the_trace_context_is_the_callers(
        string version)
    {
        await using var sidecar = await EmulatedSidecar.StartRecordingAsync();
        sidecar.Runtime = Runtime(version);
        await using var publishing = EmulatorDaprClient.Publishing(sidecar.Address, ("DAPR_API_TOKEN", "secret-token"));
        var order = TestOrders.Make(5, Delivery.Express);
        using var activity = new Activity("deliver").SetIdFormat(ActivityIdFormat.W3C).Start();

        await publishing.GetRequiredService<IOutputBindings>()
            .CreateAsync("q-order-express-output", OrderJson.Serialize(order), CancellationToken.None);

        var message = Assert.Single(sidecar.BindingMessages);
        Assert.Empty(BrokerMessageHeaders.Forbidden(message.Metadata));
        Assert.Equal("application/json", message.Metadata["contentType"]);
        Assert.Contains(activity.TraceId.ToHexString(), message.Metadata["traceparent"], StringComparison.Ordinal);
        Assert.Equal(OrderJson.Serialize(order), OrderJson.Serialize(OrderJson.Deserialize(message.Data)));
        Assert.Equal("secret-token", Assert.Single(sidecar.Requests).Headers["dapr-api-token"]);
    }

    [Theory]
    [MemberData(nameof(Runtimes))]
    public async Task Without_a_trace_of_its_own_the_call_carries_no_trace_context_rather_than_an_all_zero_one(
        string version)
    {
        await using var sidecar = await EmulatedSidecar.StartRecordingAsync();
        sidecar.Runtime = Runtime(version);
        await using var publishing = EmulatorDaprClient.Publishing(sidecar.Address);
        Activity.Current = null;

        await publishing.GetRequiredService<IOutputBindings>()
            .CreateAsync("q-order-ingress-output", "not json at all"u8.ToArray(), CancellationToken.None);

        var message = Assert.Single(sidecar.BindingMessages);
        Assert.DoesNotContain("traceparent", message.Metadata.Keys);
        Assert.Empty(BrokerMessageHeaders.Forbidden(message.Metadata));
        Assert.Equal("\"not json at all\"", Encoding.UTF8.GetString(message.Data));
    }

    /// <summary>
    /// The bindings model calls the sidecar once per order: no log line and no logging scope per call.
    /// </summary>
    [Fact]
    public async Task A_binding_call_writes_no_line_of_the_http_client_factorys_own()
    {
        await using var sidecar = await EmulatedSidecar.StartRecordingAsync();
        var logs = new LogRecorder();
        await using var publishing = EmulatorDaprClient.Publishing(sidecar.Address, logs);

        await publishing.GetRequiredService<IOutputBindings>()
            .CreateAsync("q-order-express-output", "{}"u8.ToArray(), CancellationToken.None);

        Assert.Single(sidecar.BindingMessages);
        Assert.DoesNotContain(logs.Lines,
            l => l.Category.StartsWith("System.Net.Http.HttpClient", StringComparison.Ordinal));
    }

    /// <summary>
    /// The reason the apps do not use the SDK's InvokeBinding: the emulator shows the leak the real sidecars showed.
    /// </summary>
    [Theory]
    [MemberData(nameof(Runtimes))]
    public async Task The_SDKs_gRPC_InvokeBinding_puts_its_transport_headers_on_the_message_on_every_runtime(
        string version)
    {
        var runtime = Runtime(version);
        await using var sidecar = await EmulatedSidecar.StartAsync(
            EmulatedSidecarOptions.Recording with { Runtime = runtime, ServeGrpc = true });
        using var dapr = new DaprClientBuilder().UseGrpcEndpoint(sidecar.GrpcAddress.ToString())
            .UseDaprApiToken("secret-token").Build();
        Activity.Current = null;

        await dapr.InvokeBindingAsync(
            new BindingRequest("q-order-ingress-output",
            "create")
            { Data = OrderJson.Serialize(TestOrders.Make(1, Delivery.Express)) });

        var metadata = Assert.Single(sidecar.BindingMessages).Metadata;
        var forbidden = BrokerMessageHeaders.Forbidden(metadata);
        Assert.Contains("content-type: application/grpc", forbidden);
        Assert.Contains(forbidden, f => f.StartsWith("user-agent: grpc-dotnet", StringComparison.Ordinal));
        Assert.Contains(forbidden, f => f.StartsWith("dapr-authority: 127.0.0.1:", StringComparison.Ordinal));
        Assert.Contains(forbidden, f => f.StartsWith("dapr-grpc-accept-encoding:", StringComparison.Ordinal));
        Assert.Contains("traceparent: 00-00000000000000000000000000000000-0000000000000000-00", forbidden);
        Assert.Equal(runtime.KeepsBlankedApiToken, forbidden.Contains("dapr-api-token: "));
        Assert.DoesNotContain(forbidden, f => f.Contains("secret-token", StringComparison.Ordinal));
    }

    [Theory]
    [InlineData(500,
        """{"errorCode":"ERR_INVOKE_OUTPUT_BINDING","message":"error invoking output binding """ +
        """q-order-express-output: couldn't find output binding q-order-express-output"}""",
        SidecarFailureKind.RejectsEveryOrder)]
    [InlineData(401, "", SidecarFailureKind.RejectsEveryOrder)]
    [InlineData(413, "", SidecarFailureKind.RejectsOrder)]
    [InlineData(500,
        """{"errorCode":"ERR_INVOKE_OUTPUT_BINDING","message":"error invoking output binding """ +
        """q-order-express-output: channel/connection is not open"}""", SidecarFailureKind.Transient)]
    public async Task A_refused_binding_call_says_what_it_says_about_the_order(int status, string body,
        SidecarFailureKind expected)
    {
        await using var sidecar = await EmulatedSidecar.StartRecordingAsync();
        sidecar.BindingAnswer = _ => (status, body);
        await using var publishing = EmulatorDaprClient.Publishing(sidecar.Address);

        var failure = await Assert.ThrowsAnyAsync<Exception>(() =>
            publishing.GetRequiredService<IOutputBindings>()
                .CreateAsync("q-order-express-output", "{}"u8.ToArray(), CancellationToken.None));

        Assert.Equal(expected, SidecarFailure.Classify(failure));
        Assert.Empty(sidecar.BindingMessages);
    }

    [Theory]
    [InlineData("", "\"\"", "text/plain")]
    [InlineData("order 7: not JSON", "\"order 7: not JSON\"", "text/plain")]
    [InlineData("{\"OrderId\":7}", "{\"OrderId\":7}", "application/json")]
    public void A_binding_call_carries_JSON_as_it_is_and_anything_else_even_nothing_as_a_JSON_string(
        string payload, string data, string contentType)
    {
        using var body = JsonDocument.Parse(SidecarOutputBindings.Body(Encoding.UTF8.GetBytes(payload)));

        Assert.Equal(data, body.RootElement.GetProperty("data").GetRawText());
        Assert.Equal(contentType, body.RootElement.GetProperty("metadata").GetProperty("contentType").GetString());
    }

    private static DaprRuntimeProfile Runtime(string version) =>
        DaprRuntimeProfile.All.Single(r => r.Version == version);
}
