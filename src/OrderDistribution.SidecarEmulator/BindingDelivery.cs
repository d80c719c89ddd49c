using OrderDistribution.Messaging;

namespace OrderDistribution.SidecarEmulator;

/// <summary>
/// <see cref="MessagingModel.Bindings"/>, as the RabbitMQ input binding delivers: the raw body under a message id to
/// the app's input binding route. A 2xx is done, a 400 dead-letters it, anything else requeues it.
/// </summary>
internal sealed class BindingDelivery(
    EmulatedBroker broker, string queue, HttpClient app, QueueReport report, string inputBinding)
    : Delivery(broker, queue, app, report)
{
    protected override async Task DeliverAsync(EmulatedMessage message)
    {
        var (status, _) = await PostAsync(
            "/" + inputBinding, message.Payload, "application/json", ("Messageid", message.Origin));
        Settle(message, status switch
        {
            >= 200 and < 300 => "SUCCESS",
            400 => "DROP",
            _ => "RETRY",
        });
    }

    protected override void Retry(EmulatedMessage message) => Broker.Requeue(Queue, message);
}
