using System.Net;
using Dapr;
using Grpc.Core;
using OrderDistribution.Messaging.Outbound;

namespace OrderDistribution.Messaging.Tests.Outbound;

/// <summary>
/// What each answer of the sidecar, as the SDK or the HTTP API reports it, says about the order it carried.
/// </summary>
public sealed class SidecarFailureTests
{
    [Theory]
    [InlineData(StatusCode.Unavailable, "connection refused", SidecarFailureKind.Transient)]
    [InlineData(StatusCode.DeadlineExceeded, "deadline exceeded", SidecarFailureKind.Transient)]
    [InlineData(StatusCode.Aborted, "aborted", SidecarFailureKind.Transient)]
    [InlineData(StatusCode.Internal, "error when publishing to topic q in pubsub p: OOM command not allowed",
        SidecarFailureKind.Transient)]
    [InlineData(StatusCode.ResourceExhausted, "rate limited", SidecarFailureKind.Transient)]
    [InlineData(StatusCode.ResourceExhausted, "grpc: received message larger than max (5000435 vs. 4194304)",
        SidecarFailureKind.RejectsOrder)]
    [InlineData(StatusCode.InvalidArgument,
        "error when creating cloudevent: invalid character 'x' looking for beginning of value",
        SidecarFailureKind.RejectsOrder)]
    [InlineData(StatusCode.InvalidArgument, "entryId is duplicated or not present for entry",
        SidecarFailureKind.RejectsEveryOrder)]
    [InlineData(StatusCode.InvalidArgument, "something no one foresaw", SidecarFailureKind.RejectsEveryOrder)]
    [InlineData(StatusCode.Internal, "error when publishing: the message is too large",
        SidecarFailureKind.RejectsOrder)]
    [InlineData(StatusCode.InvalidArgument, "pubsub order-pubsub is not found", SidecarFailureKind.RejectsEveryOrder)]
    [InlineData(StatusCode.Unauthenticated, "authentication error: api token mismatch",
        SidecarFailureKind.RejectsEveryOrder)]
    [InlineData(StatusCode.PermissionDenied, "topic q is not allowed for app id distributor",
        SidecarFailureKind.RejectsEveryOrder)]
    [InlineData(StatusCode.FailedPrecondition, "pubsub order-pubsub is not configured",
        SidecarFailureKind.RejectsEveryOrder)]
    [InlineData(StatusCode.Internal, "error invoking output binding q: couldn't find output binding q",
        SidecarFailureKind.RejectsEveryOrder)]
    public void A_gRPC_answer_is_judged_by_its_status_and_what_it_says(StatusCode status, string detail,
        SidecarFailureKind expected)
    {
        var fromSdk = new DaprException("Publish operation failed", new RpcException(new Status(status, detail)));

        Assert.Equal(expected, SidecarFailure.Classify(fromSdk));
        Assert.Equal(expected,
            SidecarFailure.Classify(
            new SidecarCallException("alpha bulk publish failed", new RpcException(new Status(status, detail)))));
    }

    [Theory]
    [InlineData(HttpStatusCode.ServiceUnavailable, "", SidecarFailureKind.Transient)]
    [InlineData(HttpStatusCode.InternalServerError,
        "{\"errorCode\":\"ERR_INVOKE_OUTPUT_BINDING\",\"message\":\"error invoking output binding q: channel closed\"}",
        SidecarFailureKind.Transient)]
    [InlineData(HttpStatusCode.RequestEntityTooLarge, "", SidecarFailureKind.RejectsOrder)]
    [InlineData(HttpStatusCode.BadRequest,
        "{\"errorCode\":\"ERR_MALFORMED_REQUEST\",\"message\":\"failed deserializing HTTP body\"}",
        SidecarFailureKind.RejectsOrder)]
    [InlineData(HttpStatusCode.BadRequest, "{\"errorCode\":\"ERR_PUBSUB_NOT_FOUND\"}",
        SidecarFailureKind.RejectsEveryOrder)]
    [InlineData(HttpStatusCode.Unauthorized, "", SidecarFailureKind.RejectsEveryOrder)]
    [InlineData(HttpStatusCode.Forbidden, "", SidecarFailureKind.RejectsEveryOrder)]
    [InlineData(HttpStatusCode.NotFound, "", SidecarFailureKind.RejectsEveryOrder)]
    [InlineData(HttpStatusCode.InternalServerError,
        "{\"errorCode\":\"ERR_INVOKE_OUTPUT_BINDING\",\"message\":\"error invoking output binding q: couldn't find " +
        "output binding q\"}", SidecarFailureKind.RejectsEveryOrder)]
    public void An_HTTP_answer_is_judged_by_its_status_and_what_it_says(HttpStatusCode status, string body,
        SidecarFailureKind expected)
    {
        var failure = new SidecarCallException("not confirmed",
            new HttpRequestException($"{(int)status} {body}", null, status));

        Assert.Equal(expected, SidecarFailure.Classify(failure));
    }

    [Fact]
    public void A_broken_connection_a_timeout_and_an_open_circuit_are_transient_and_only_they_count_against_it()
    {
        Assert.Equal(SidecarFailureKind.Transient,
            SidecarFailure.Classify(new HttpRequestException("connection refused")));
        Assert.Equal(SidecarFailureKind.Transient,
            SidecarFailure.Classify(new Polly.Timeout.TimeoutRejectedException()));
        Assert.Equal(SidecarFailureKind.Transient,
            SidecarFailure.Classify(new Polly.CircuitBreaker.BrokenCircuitException()));

        Assert.True(
            SidecarFailure.CountsAgainstSidecar(
            new DaprException("x", new RpcException(new Status(StatusCode.Unavailable, "down")))));
        Assert.True(
            SidecarFailure.CountsAgainstSidecar(new BulkPublishPartlyFailedException([new FailedEntry("1", "busy")])));
        Assert.False(SidecarFailure.CountsAgainstSidecar(
            new DaprException("x",
                new RpcException(
                new Status(StatusCode.ResourceExhausted,
                "grpc: received message larger than max (5000435 vs. 4194304)")))));
        Assert.False(
            SidecarFailure.CountsAgainstSidecar(
            new DaprException("x", new RpcException(new Status(StatusCode.Unauthenticated, "missing api token")))));
    }

    [Theory]
    [InlineData("the message is too large", SidecarFailureKind.RejectsOrder)]
    [InlineData("grpc: received message larger than max (5000435 vs. 4194304)", SidecarFailureKind.RejectsOrder)]
    [InlineData("payload too big", SidecarFailureKind.RejectsOrder)]
    [InlineData("servicebus: MessageSizeExceeded", SidecarFailureKind.RejectsOrder)]
    [InlineData("amqp: message size exceeded", SidecarFailureKind.RejectsOrder)]
    [InlineData("the message exceeds the maximum size", SidecarFailureKind.RejectsOrder)]
    [InlineData("redis streams: error from publish: OOM command not allowed", SidecarFailureKind.Transient)]
    public void A_failed_bulk_entry_is_dropped_only_when_the_broker_refuses_its_size(string error,
        SidecarFailureKind expected) =>
        Assert.Equal(expected, SidecarFailure.ClassifyEntryError(error));
}
