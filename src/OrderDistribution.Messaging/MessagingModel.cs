using System.ComponentModel;

namespace OrderDistribution.Messaging;

/// <summary>
/// How orders travel between the apps, written <c>bindings</c>, <c>pubsub-single</c> or <c>pubsub-bulk</c> everywhere
/// (configuration <c>Messaging:Model</c>, <c>order-load --model</c>, result labels); <see cref="MessagingModels"/>
/// reads and writes that spelling. The way an entry reached an app is its model: the distributor forwards it the same
/// way.
/// </summary>
[TypeConverter(typeof(MessagingModelConverter))]
public enum MessagingModel
{
    /// <summary>Input and output bindings on the queues, one message per request.</summary>
    Bindings,

    /// <summary>Pub/sub, one message per request each way.</summary>
    PubSubSingle,

    /// <summary>Pub/sub, bulk subscribe in and bulk publish out.</summary>
    PubSubBulk,
}
