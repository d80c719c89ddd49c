using System.Text.Json.Nodes;

namespace OrderDistribution.Deployment.Tests;

/// <summary>
/// infra/bicepconfig.json turns on the linter rules the Bicep compiler leaves off by default, so that the lint
/// test fails on stale API versions, untyped parameters, location expressions and what-if blind spots.
/// </summary>
public class BicepLinterConfigTests
{
    private const string ConfigFile = "infra/bicepconfig.json";

    /// <summary>The core linter rules that are off unless a bicepconfig.json turns them on (Bicep 0.49).</summary>
    private static readonly string[] RulesOffByDefault =
    [
        "explicit-values-for-loc-params",
        "no-hardcoded-location",
        "no-loc-expr-outside-params",
        "use-recent-api-versions",
        "use-recent-module-versions",
        "use-user-defined-types",
        "what-if-short-circuiting",
    ];

    /// <summary>Rules whose verdict changes with the calendar: as errors, a provision would fail on a date.</summary>
    private static readonly string[] RulesThatAgeWithTime =
    [
        "use-recent-api-versions",
        "use-recent-module-versions",
    ];

    [Fact]
    public void Infra_bicepconfig_turns_on_every_linter_rule_that_is_off_by_default()
    {
        var rules = Rules();
        foreach (var rule in RulesOffByDefault)
        {
            var level = rules[rule]?["level"]?.GetValue<string>();
            Assert.True(level is "warning" or "error",
                $"{ConfigFile}: {rule} is at level '{level ?? "(unset)"}', not warning or error");
        }
    }

    [Fact]
    public void Rules_that_age_with_time_warn_instead_of_failing_the_build_that_azd_provision_runs()
    {
        var rules = Rules();
        foreach (var rule in RulesThatAgeWithTime)
        {
            Assert.Equal("warning", rules[rule]?["level"]?.GetValue<string>());
        }
    }

    [RequiresBicepFact]
    public void The_linter_reports_a_stale_api_version_in_a_bicep_file_under_infra()
    {
        // Off by default: the compiler reports it only if it reads infra/bicepconfig.json for files there.
        var relative = $"infra/stale-api-probe-{Guid.NewGuid():N}.bicep";
        File.WriteAllText(Repo.PathOf(relative), """
            resource account 'Microsoft.Storage/storageAccounts@2021-01-01' existing = {
              name: 'probe'
            }

            output accountId string = account.id
            """);
        try
        {
            var (_, output) = BicepCompiler.Run("lint", relative);
            Assert.Contains("use-recent-api-versions", output, StringComparison.Ordinal);
        }
        finally
        {
            File.Delete(Repo.PathOf(relative));
        }
    }

    private static JsonObject Rules() =>
        JsonNode.Parse(Repo.Read(ConfigFile))?["analyzers"]?["core"]?["rules"]?.AsObject()
        ?? throw new Xunit.Sdk.XunitException($"{ConfigFile} has no analyzers.core.rules");
}
