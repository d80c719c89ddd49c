namespace OrderDistribution.Messaging.Outbound;

/// <summary>
/// What a failed call to the sidecar says about the order it carried (<see
/// cref="SidecarFailure.Classify(Exception)"/>).
/// </summary>
public enum SidecarFailureKind
{
    /// <summary>The sidecar or the broker behind it could not take it now (down, busy, timed out): try again.</summary>
    Transient,

    /// <summary>
    /// Wrong for this order for good (too large, content refused): another try fails the same way, so it is dropped.
    /// </summary>
    RejectsOrder,

    /// <summary>
    /// Wrong for every order (a component not found, a missing or wrong API token, access denied): the configuration,
    /// not the order. Never dropped: retried, and the app reports itself not ready until a call goes through.
    /// </summary>
    RejectsEveryOrder,
}
