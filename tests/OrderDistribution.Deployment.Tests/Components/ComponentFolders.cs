namespace OrderDistribution.Deployment.Tests;

/// <summary>The local components' folders, one per model family, and the pub/sub the first declares.</summary>
internal static class ComponentFolders
{
    public const string PubSub = "components-pubsub";

    public const string Bindings = "components-bindings";

    /// <summary>order-pubsub as components-pubsub declares it: pubsub.redis.</summary>
    public static DaprComponent LocalPubSub() =>
        DaprComponent.Named(DaprComponent.LoadFolder(PubSub), Contract.PubSubName, PubSub);
}
