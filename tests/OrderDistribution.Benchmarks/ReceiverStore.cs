namespace OrderDistribution.Benchmarks;

/// <summary>What a receiver in an <see cref="AppProcess"/> keeps its orders in.</summary>
public enum ReceiverStore
{
    /// <summary>Its own store: each order stored in the blob container, as the receiver is configured.</summary>
    Configured,

    /// <summary><see cref="UploadOnlyStore"/>: the upload without the store's pipeline around it.</summary>
    UploadOnly,

    /// <summary><see cref="DiscardingStore"/>: nothing kept.</summary>
    Discarding,
}
