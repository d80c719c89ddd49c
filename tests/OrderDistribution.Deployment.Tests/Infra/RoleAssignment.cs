using System.Text.Json.Nodes;

namespace OrderDistribution.Deployment.Tests;

/// <summary>
/// One role assignment: who (an identity's name, an app's system identity, or a principal id), on what, which role.
/// </summary>
internal sealed record RoleAssignment(string Who, string ScopeType, string ScopeName, string RoleId)
{
    public static RoleAssignment From(JsonObject resource)
    {
        var id = resource["id"]!.GetValue<string>();
        // Evaluated: SCOPE/providers/Microsoft.Authorization/roleAssignments/GUID; with a principal known only
        // once deployed: [extensionResourceId('SCOPE', ...)].
        var scope = id.StartsWith('[') ? FirstQuoted(
            id) : id[..id.IndexOf("/providers/Microsoft.Authorization/", StringComparison.Ordinal)];
        var segments = scope.Split('/');
        var principal = resource["properties"]!["principalId"]!.GetValue<string>();
        var who = !principal.StartsWith('[')
            ? principal
            : FirstQuoted(principal) is var owner
                && owner.Contains("/Microsoft.App/containerApps/", StringComparison.Ordinal)
                ? $"{InfraSnapshot.LastSegment(owner)} (system-assigned)"
                : WithoutToken(InfraSnapshot.LastSegment(FirstQuoted(principal)));
        var role = InfraSnapshot.LastSegment(resource["properties"]!["roleDefinitionId"]!.GetValue<string>());
        return new RoleAssignment(who, segments[^2], segments[^1], role);
    }

    private static string FirstQuoted(string expression)
    {
        var start = expression.IndexOf('\'', StringComparison.Ordinal) + 1;
        return expression[start..expression.IndexOf('\'', start)];
    }

    /// <summary>id-distributor-scaler-TOKEN: id-distributor-scaler.</summary>
    private static string WithoutToken(string name) => name[..name.LastIndexOf('-')];
}
