using Castle.DynamicProxy;
using Dapr.Client;

namespace OrderDistribution.SidecarEmulator.Client;

/// <summary>
/// The emulator's accepting mode (<see cref="EmulatorDaprClient.Accepting"/>): every publish confirmed without being
/// sent, the sidecar reported healthy.
/// </summary>
internal sealed class AcceptingInterceptor : IInterceptor
{
    private static readonly Task<BulkPublishResponse<byte[]>> AllPublished =
        Task.FromResult(new BulkPublishResponse<byte[]>([]));

    public void Intercept(IInvocation invocation) =>
        invocation.ReturnValue = invocation.Method.Name switch
        {
            nameof(DaprClient.PublishByteEventAsync) => Task.CompletedTask,
            nameof(DaprClient.BulkPublishEventAsync) when invocation.Method.GetGenericArguments() is [var type]
                && type == typeof(byte[]) => AllPublished,
            nameof(DaprClient.CheckOutboundHealthAsync) => Task.FromResult(true),
            nameof(DaprClient.GetMetadataAsync) =>
                Task.FromResult(new DaprMetadata("sidecar-emulator", [], new Dictionary<string, string>(), [])),
            nameof(DaprClient.Dispose) => null,
            _ => throw EmulatorDaprClient.NotServed(invocation),
        };
}
