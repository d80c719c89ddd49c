namespace OrderDistribution.Deployment.Tests;

/// <summary>infra/workbook/bursts.workbook.json, the workbook main.bicep deploys.</summary>
internal static class Workbook
{
    public const string File = "infra/workbook/bursts.workbook.json";

    public static System.Text.Json.Nodes.JsonObject Item(string name) =>
        System.Text.Json.Nodes.JsonNode.Parse(Repo.Read(File))!["items"]!.AsArray()
            .Single(item => item!["name"]!.GetValue<string>() == name)!.AsObject();

    /// <summary>The KQL items' queries by item name.</summary>
    public static Dictionary<string, string> Queries() =>
        System.Text.Json.Nodes.JsonNode.Parse(Repo.Read(File))!["items"]!.AsArray()
            .Where(item => item!["type"]!.GetValue<int>() == 3)
            .ToDictionary(item => item!["name"]!.GetValue<string>(),
                item => item!["content"]!["query"]!.GetValue<string>());
}
