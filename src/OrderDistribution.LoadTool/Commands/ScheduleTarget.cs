namespace OrderDistribution.LoadTool.Commands;

public enum ScheduleTarget
{
    Local,
    Azure,
}
