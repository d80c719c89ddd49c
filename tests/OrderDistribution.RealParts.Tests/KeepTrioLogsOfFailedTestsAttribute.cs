using System.Reflection;
using Xunit.v3;

[assembly: OrderDistribution.RealParts.Tests.KeepTrioLogsOfFailedTests]

namespace OrderDistribution.RealParts.Tests;

/// <summary>
/// After each test of this assembly, once its result is known (xunit sets it before the after-test hooks): the logs of
/// the trios it ran are deleted if it passed, else kept, and the test's output ends with where they are and their last
/// lines.
/// </summary>
[AttributeUsage(AttributeTargets.Assembly)]
public sealed class KeepTrioLogsOfFailedTestsAttribute : BeforeAfterTestAttribute
{
    public override void After(MethodInfo methodUnderTest, IXunitTest test)
    {
        var result = TestContext.Current.TestState?.Result;
        if (TrioLogs.Settle(test.UniqueID, passed: result is TestResult.Passed or TestResult.Skipped) is { } tails)
        {
            TestContext.Current.TestOutputHelper?.WriteLine(tails);
        }
    }
}
