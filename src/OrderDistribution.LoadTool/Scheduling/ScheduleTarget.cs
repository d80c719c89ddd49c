namespace OrderDistribution.LoadTool.Scheduling;

public enum ScheduleTarget
{
    Local,
    Azure,
}
