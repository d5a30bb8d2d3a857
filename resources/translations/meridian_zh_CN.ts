<?xml version='1.0' encoding='utf-8'?>
<TS version="2.1" language="zh_CN">
<context>
    <name>FleetHeatmap</name>
    <message>
        <location filename="../../widgets/fleetheatmap.cpp" line="19" />
        <source>never</source>
        <translation>从未</translation>
    </message>
    <message>
        <location filename="../../widgets/fleetheatmap.cpp" line="20" />
        <source>%1 s ago</source>
        <translation>%1 秒前</translation>
    </message>
</context>
<context>
    <name>FleetMetric</name>
    <message>
        <location filename="../../models/metricscale.cpp" line="12" />
        <source>Utilisation</source>
        <translation>利用率</translation>
    </message>
    <message>
        <location filename="../../models/metricscale.cpp" line="13" />
        <source>Memory</source>
        <translation>显存</translation>
    </message>
    <message>
        <location filename="../../models/metricscale.cpp" line="14" />
        <source>Temperature</source>
        <translation>温度</translation>
    </message>
    <message>
        <location filename="../../models/metricscale.cpp" line="15" />
        <source>Power</source>
        <translation>功耗</translation>
    </message>
    <message>
        <location filename="../../models/metricscale.cpp" line="16" />
        <source>Errors</source>
        <translation>错误</translation>
    </message>
    <message>
        <location filename="../../models/metricscale.cpp" line="24" />
        <source>n/a</source>
        <translation>无读数</translation>
    </message>
</context>
<context>
    <name>QObject</name>
    <message>
        <location filename="../../app/console/consolesession.cpp" line="68" />
        <source>Meridian — simulated fleet (plaintext on loopback)</source>
        <translation>Meridian — 模拟集群（本机回环，未加密）</translation>
    </message>
    <message>
        <location filename="../../app/console/consolesession.cpp" line="71" />
        <source>Cost history is off: %1</source>
        <translation>成本历史已停用：%1</translation>
    </message>
    <message>
        <location filename="../../app/console/main.cpp" line="100" />
        <source>Meridian cannot start</source>
        <translation>Meridian 无法启动</translation>
    </message>
</context>
<context>
    <name>meridian::AlertsModel</name>
    <message>
        <location filename="../../models/alertsmodel.cpp" line="54" />
        <source>resolved</source>
        <translation>已恢复</translation>
    </message>
    <message>
        <location filename="../../models/alertsmodel.cpp" line="56" />
        <source>silenced until %1</source>
        <translation>静默至 %1</translation>
    </message>
    <message>
        <location filename="../../models/alertsmodel.cpp" line="60" />
        <source>acknowledged by %1</source>
        <translation>已由 %1 确认</translation>
    </message>
    <message>
        <location filename="../../models/alertsmodel.cpp" line="61" />
        <source>open</source>
        <translation>未处理</translation>
    </message>
    <message>
        <location filename="../../models/alertsmodel.cpp" line="84" />
        <source>critical</source>
        <translation>严重</translation>
    </message>
    <message>
        <location filename="../../models/alertsmodel.cpp" line="84" />
        <source>warning</source>
        <translation>警告</translation>
    </message>
    <message>
        <location filename="../../models/alertsmodel.cpp" line="116" />
        <source>Severity</source>
        <translation>级别</translation>
    </message>
    <message>
        <location filename="../../models/alertsmodel.cpp" line="117" />
        <source>What</source>
        <translation>类型</translation>
    </message>
    <message>
        <location filename="../../models/alertsmodel.cpp" line="118" />
        <source>Where</source>
        <translation>位置</translation>
    </message>
    <message>
        <location filename="../../models/alertsmodel.cpp" line="119" />
        <source>Data center</source>
        <translation>数据中心</translation>
    </message>
    <message>
        <location filename="../../models/alertsmodel.cpp" line="120" />
        <source>First seen</source>
        <translation>首次出现</translation>
    </message>
    <message>
        <location filename="../../models/alertsmodel.cpp" line="121" />
        <source>Last seen</source>
        <translation>最近出现</translation>
    </message>
    <message>
        <location filename="../../models/alertsmodel.cpp" line="122" />
        <source>Count</source>
        <translation>次数</translation>
    </message>
    <message>
        <location filename="../../models/alertsmodel.cpp" line="123" />
        <source>State</source>
        <translation>状态</translation>
    </message>
    <message>
        <location filename="../../models/alertsmodel.cpp" line="124" />
        <source>Note</source>
        <translation>备注</translation>
    </message>
</context>
<context>
    <name>meridian::AlertsPanel</name>
    <message>
        <location filename="../../widgets/alertspanel.cpp" line="68" />
        <source>Acknowledge</source>
        <translation>确认</translation>
    </message>
    <message>
        <location filename="../../widgets/alertspanel.cpp" line="69" />
        <source>Silence 1 h</source>
        <translation>静默 1 小时</translation>
    </message>
    <message>
        <location filename="../../widgets/alertspanel.cpp" line="70" />
        <source>Silence 8 h</source>
        <translation>静默 8 小时</translation>
    </message>
    <message>
        <location filename="../../widgets/alertspanel.cpp" line="71" />
        <source>Note…</source>
        <translation>备注…</translation>
    </message>
    <message>
        <location filename="../../widgets/alertspanel.cpp" line="72" />
        <source>Open only</source>
        <translation>仅未处理</translation>
    </message>
    <message>
        <location filename="../../widgets/alertspanel.cpp" line="124" />
        <source>Note</source>
        <translation>备注</translation>
    </message>
    <message>
        <location filename="../../widgets/alertspanel.cpp" line="124" />
        <source>Note for %1:</source>
        <translation>%1 的备注：</translation>
    </message>
</context>
<context>
    <name>meridian::CardDetailPanel</name>
    <message>
        <location filename="../../widgets/carddetailpanel.cpp" line="33" />
        <source>Select a card in the fleet to see its history.</source>
        <translation>在集群中选择一张卡以查看其历史。</translation>
    </message>
    <message>
        <location filename="../../widgets/carddetailpanel.cpp" line="51" />
        <source>Recent events on this node</source>
        <translation>该节点最近的事件</translation>
    </message>
    <message>
        <location filename="../../widgets/carddetailpanel.cpp" line="79" />
        <source>%1 · card %2 · %3</source>
        <translation>%1 · 卡 %2 · %3</translation>
    </message>
    <message>
        <location filename="../../widgets/carddetailpanel.cpp" line="83" />
        <source>stale</source>
        <translation>已过期</translation>
    </message>
    <message>
        <location filename="../../widgets/carddetailpanel.cpp" line="83" />
        <source>live</source>
        <translation>在线</translation>
    </message>
    <message>
        <location filename="../../widgets/carddetailpanel.cpp" line="85" />
        <source>unreachable: %1</source>
        <translation>无法连接：%1</translation>
    </message>
    <message>
        <location filename="../../widgets/carddetailpanel.cpp" line="87" />
        <source>UUID %1&lt;br&gt;%2 · rack %3 · %4 · agent %5 (%6)</source>
        <translation>UUID %1&lt;br&gt;%2 · 机架 %3 · %4 · 代理 %5（%6）</translation>
    </message>
</context>
<context>
    <name>meridian::DataCenterSummaryModel</name>
    <message>
        <location filename="../../models/datacentersummarymodel.cpp" line="110" />
        <source>%1 of %2</source>
        <translation>%1 / %2</translation>
    </message>
    <message>
        <location filename="../../models/datacentersummarymodel.cpp" line="120" />
        <source>%1 of %2 reporting cards at or above %3% utilisation</source>
        <translation>%2 张上报卡中有 %1 张利用率不低于 %3%</translation>
    </message>
    <message>
        <location filename="../../models/datacentersummarymodel.cpp" line="134" />
        <source>Data center</source>
        <translation>数据中心</translation>
    </message>
    <message>
        <location filename="../../models/datacentersummarymodel.cpp" line="135" />
        <source>Cards</source>
        <translation>卡数</translation>
    </message>
    <message>
        <location filename="../../models/datacentersummarymodel.cpp" line="136" />
        <source>Busy</source>
        <translation>忙碌</translation>
    </message>
    <message>
        <location filename="../../models/datacentersummarymodel.cpp" line="137" />
        <source>Mean utilisation</source>
        <translation>平均利用率</translation>
    </message>
    <message>
        <location filename="../../models/datacentersummarymodel.cpp" line="138" />
        <source>Domestic</source>
        <translation>国产占比</translation>
    </message>
    <message>
        <location filename="../../models/datacentersummarymodel.cpp" line="139" />
        <source>Nodes stale</source>
        <translation>过期节点</translation>
    </message>
    <message>
        <location filename="../../models/datacentersummarymodel.cpp" line="140" />
        <source>Open alerts</source>
        <translation>未处理告警</translation>
    </message>
</context>
<context>
    <name>meridian::FleetHeatmap</name>
    <message>
        <location filename="../../widgets/fleetheatmap.cpp" line="29" />
        <source>%1 — %2 cards</source>
        <translation>%1 — %2 张卡</translation>
    </message>
    <message>
        <location filename="../../widgets/fleetheatmap.cpp" line="40" />
        <source> · %1 of %2 agents unreachable</source>
        <translation> · %2 个代理中 %1 个无法连接</translation>
    </message>
    <message>
        <location filename="../../widgets/fleetheatmap.cpp" line="44" />
        <source> · %1 stale</source>
        <translation> · %1 个已过期</translation>
    </message>
    <message>
        <location filename="../../widgets/fleetheatmap.cpp" line="254" />
        <source>unreachable: %1</source>
        <translation>无法连接：%1</translation>
    </message>
    <message>
        <location filename="../../widgets/fleetheatmap.cpp" line="259" />
        <source>stale: last seen %1</source>
        <translation>已过期：最后一次看到于 %1</translation>
    </message>
    <message>
        <location filename="../../widgets/fleetheatmap.cpp" line="270" />
        <source>card %1 · %2</source>
        <translation>卡 %1 · %2</translation>
    </message>
    <message numerus="yes">
        <location filename="../../widgets/fleetheatmap.cpp" line="284" />
        <source>%n error event(s)</source>
        <translation>
            <numerusform>%n 个错误事件</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>meridian::HeatmapLegend</name>
    <message>
        <location filename="../../widgets/heatmaplegend.cpp" line="75" />
        <source>no reading</source>
        <translation>无读数</translation>
    </message>
    <message>
        <location filename="../../widgets/heatmaplegend.cpp" line="76" />
        <source>stale</source>
        <translation>已过期</translation>
    </message>
</context>
<context>
    <name>meridian::MainWindow</name>
    <message>
        <location filename="../../widgets/mainwindow.cpp" line="42" />
        <source>Meridian — fleet</source>
        <translation>Meridian — 集群</translation>
    </message>
    <message>
        <location filename="../../widgets/mainwindow.cpp" line="71" />
        <source>Card</source>
        <translation>卡</translation>
    </message>
    <message>
        <location filename="../../widgets/mainwindow.cpp" line="81" />
        <source>Alerts</source>
        <translation>告警</translation>
    </message>
    <message>
        <location filename="../../widgets/mainwindow.cpp" line="92" />
        <source>Alerts (%1 open)</source>
        <translation>告警（%1 条未处理）</translation>
    </message>
    <message>
        <location filename="../../widgets/mainwindow.cpp" line="112" />
        <source>Fleet</source>
        <translation>集群</translation>
    </message>
    <message>
        <location filename="../../widgets/mainwindow.cpp" line="115" />
        <source>Colour by </source>
        <translation>着色依据 </translation>
    </message>
    <message>
        <location filename="../../widgets/mainwindow.cpp" line="122" />
        <source> Data center </source>
        <translation> 数据中心 </translation>
    </message>
    <message>
        <location filename="../../widgets/mainwindow.cpp" line="124" />
        <location filename="../../widgets/mainwindow.cpp" line="129" />
        <location filename="../../widgets/mainwindow.cpp" line="138" />
        <location filename="../../widgets/mainwindow.cpp" line="143" />
        <source>All</source>
        <translation>全部</translation>
    </message>
    <message>
        <location filename="../../widgets/mainwindow.cpp" line="127" />
        <source> Vendor </source>
        <translation> 厂商 </translation>
    </message>
    <message>
        <location filename="../../widgets/mainwindow.cpp" line="136" />
        <source> Model </source>
        <translation> 型号 </translation>
    </message>
    <message>
        <location filename="../../widgets/mainwindow.cpp" line="141" />
        <source> State </source>
        <translation> 状态 </translation>
    </message>
    <message>
        <location filename="../../widgets/mainwindow.cpp" line="144" />
        <source>Live</source>
        <translation>在线</translation>
    </message>
    <message>
        <location filename="../../widgets/mainwindow.cpp" line="145" />
        <source>Stale</source>
        <translation>已过期</translation>
    </message>
    <message>
        <location filename="../../widgets/mainwindow.cpp" line="146" />
        <source>Unreachable</source>
        <translation>无法连接</translation>
    </message>
    <message>
        <location filename="../../widgets/mainwindow.cpp" line="147" />
        <source>With errors</source>
        <translation>有错误</translation>
    </message>
    <message>
        <location filename="../../widgets/mainwindow.cpp" line="148" />
        <source>No reading</source>
        <translation>无读数</translation>
    </message>
    <message>
        <location filename="../../widgets/mainwindow.cpp" line="152" />
        <source>Search host, node or card UUID (Ctrl+F)</source>
        <translation>搜索主机、节点或卡 UUID（Ctrl+F）</translation>
    </message>
    <message>
        <location filename="../../widgets/mainwindow.cpp" line="157" />
        <source>Search</source>
        <translation>搜索</translation>
    </message>
    <message>
        <location filename="../../widgets/mainwindow.cpp" line="203" />
        <source>&amp;View</source>
        <translation>视图(&amp;V)</translation>
    </message>
    <message>
        <location filename="../../widgets/mainwindow.cpp" line="205" />
        <source>&amp;Alerts</source>
        <translation>告警(&amp;A)</translation>
    </message>
    <message>
        <location filename="../../widgets/mainwindow.cpp" line="212" />
        <source>&amp;Theme</source>
        <translation>主题(&amp;T)</translation>
    </message>
    <message>
        <location filename="../../widgets/mainwindow.cpp" line="214" />
        <source>System</source>
        <translation>跟随系统</translation>
    </message>
    <message>
        <location filename="../../widgets/mainwindow.cpp" line="215" />
        <source>Light</source>
        <translation>浅色</translation>
    </message>
    <message>
        <location filename="../../widgets/mainwindow.cpp" line="216" />
        <source>Dark</source>
        <translation>深色</translation>
    </message>
    <message>
        <location filename="../../widgets/mainwindow.cpp" line="229" />
        <source>&amp;Help</source>
        <translation>帮助(&amp;H)</translation>
    </message>
    <message>
        <location filename="../../widgets/mainwindow.cpp" line="230" />
        <source>&amp;Diagnostics</source>
        <translation>诊断(&amp;D)</translation>
    </message>
    <message>
        <location filename="../../widgets/mainwindow.cpp" line="237" />
        <source>Diagnostics</source>
        <translation>诊断</translation>
    </message>
    <message>
        <location filename="../../widgets/mainwindow.cpp" line="249" />
        <source>Agents: %1 (%2 live, %3 stale, %4 unreachable)&lt;br&gt;Cards: %5&lt;br&gt;Telemetry: %6 batches/s&lt;br&gt;UI event-loop lag: p50 %7 ms, p99 %8 ms, max %9 ms&lt;br&gt;Memory: %10 MiB · CPU: %11% of one core</source>
        <translation>代理：%1（在线 %2，过期 %3，无法连接 %4）&lt;br&gt;卡：%5&lt;br&gt;遥测：每秒 %6 批&lt;br&gt;界面事件循环延迟：p50 %7 毫秒，p99 %8 毫秒，最大 %9 毫秒&lt;br&gt;内存：%10 MiB · CPU：单核的 %11%</translation>
    </message>
    <message>
        <location filename="../../widgets/mainwindow.cpp" line="332" />
        <source>%1 agents: %2 live, %3 stale, %4 unreachable · %5 cards</source>
        <translation>%1 个代理：在线 %2，过期 %3，无法连接 %4 · %5 张卡</translation>
    </message>
    <message>
        <location filename="../../widgets/mainwindow.cpp" line="339" />
        <source> · %1 match the filter</source>
        <translation> · %1 张符合筛选</translation>
    </message>
</context>
</TS>