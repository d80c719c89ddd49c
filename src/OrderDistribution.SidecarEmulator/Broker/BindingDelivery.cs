using OrderDistribution.Messaging;

namespace OrderDistribution.SidecarEmulator.Broker;

/// <summary>
/// <see cref="MessagingModel.Bindings"/>, as the RabbitMQ input binding delivers: the raw body under a message id to
/// the app's input binding route. A 2xx is done, anything else requeues it: bindings.rabbitmq nacks every other
/// answer with requeue, a 400 as much as a 503, and has no dead-letter setting of its own.
/// </summary>
internal sealed class BindingDelivery(
    EmulatedBroker broker, string queue, HttpClient app, QueueReport report, string inputBinding)
    : Delivery(broker, queue, app, report)
{
    protected override async Task DeliverAsync(EmulatedMessage message)
    {
        var (status, _) = await PostAsync(
            "/" + inputBinding, message.Payload, "application/json", ("Messageid", message.Origin));
        Settle(message, status is >= 200 and < 300 ? "SUCCESS" : "RETRY");
    }

    protected override void Retry(EmulatedMessage message) => Broker.Requeue(Queue, message);
}
