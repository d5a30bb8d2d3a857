<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name>FleetHeatmap</name>
    <message>
        <location filename="../../widgets/fleetheatmap.cpp" line="19"/>
        <source>never</source>
        <translation>从未</translation>
    </message>
    <message>
        <location filename="../../widgets/fleetheatmap.cpp" line="20"/>
        <source>%1 s ago</source>
        <translation>%1 秒前</translation>
    </message>
</context>
<context>
    <name>FleetMetric</name>
    <message>
        <location filename="../../models/metricscale.cpp" line="12"/>
        <source>Utilisation</source>
        <translation>利用率</translation>
    </message>
    <message>
        <location filename="../../models/metricscale.cpp" line="13"/>
        <source>Memory</source>
        <translation>显存</translation>
    </message>
    <message>
        <location filename="../../models/metricscale.cpp" line="14"/>
        <source>Temperature</source>
        <translation>温度</translation>
    </message>
    <message>
        <location filename="../../models/metricscale.cpp" line="15"/>
        <source>Power</source>
        <translation>功耗</translation>
    </message>
    <message>
        <location filename="../../models/metricscale.cpp" line="16"/>
        <source>Errors</source>
        <translation>错误</translation>
    </message>
    <message>
        <location filename="../../models/metricscale.cpp" line="24"/>
        <source>n/a</source>
        <translation>无读数</translation>
    </message>
</context>
<context>
    <name>QObject</name>
    <message>
        <location filename="../../app/console/consolesession.cpp" line="85"/>
        <source>Meridian — simulated fleet (plaintext on loopback)</source>
        <translation>Meridian — 模拟集群（本机回环，未加密）</translation>
    </message>
    <message>
        <location filename="../../app/console/consolesession.cpp" line="103"/>
        <source>Cost history: %1</source>
        <translation>成本历史：%1</translation>
    </message>
    <message>
        <location filename="../../app/console/consolesession.cpp" line="112"/>
        <source>Cost history is off: %1</source>
        <translation>成本历史已停用：%1</translation>
    </message>
    <message>
        <location filename="../../app/console/main.cpp" line="102"/>
        <source>Meridian cannot start</source>
        <translation>Meridian 无法启动</translation>
    </message>
    <message>
        <location filename="../../widgets/reportcharts.cpp" line="56"/>
        <source>Card-hours and cost per day</source>
        <translation>每日卡时与成本</translation>
    </message>
    <message>
        <location filename="../../widgets/reportcharts.cpp" line="57"/>
        <source>Card-hours and cost per week</source>
        <translation>每周卡时与成本</translation>
    </message>
    <message>
        <location filename="../../widgets/reportcharts.cpp" line="58"/>
        <source>Busy card-hours</source>
        <translation>忙碌卡时</translation>
    </message>
    <message>
        <location filename="../../widgets/reportcharts.cpp" line="59"/>
        <source>Idle card-hours</source>
        <translation>空闲卡时</translation>
    </message>
    <message>
        <location filename="../../widgets/reportcharts.cpp" line="65"/>
        <source>Cost (CNY, right)</source>
        <translation>成本（元，右轴）</translation>
    </message>
    <message>
        <location filename="../../widgets/reportcharts.cpp" line="97"/>
        <source>card-hours</source>
        <translation>卡时</translation>
    </message>
    <message>
        <location filename="../../widgets/reportcharts.cpp" line="102"/>
        <source>CNY</source>
        <translation>元</translation>
    </message>
    <message>
        <location filename="../../widgets/reportcharts.cpp" line="124"/>
        <source>Cost by %1, the %2 largest of %3 (CNY)</source>
        <translation>按%1的成本，%3 个中最高的 %2 个（元）</translation>
    </message>
    <message>
        <location filename="../../widgets/reportcharts.cpp" line="128"/>
        <source>Cost by %1 (CNY)</source>
        <translation>按%1的成本（元）</translation>
    </message>
    <message>
        <location filename="../../widgets/reportcharts.cpp" line="129"/>
        <location filename="../../widgets/reportpdf.cpp" line="179"/>
        <source>Busy</source>
        <translation>忙碌</translation>
    </message>
    <message>
        <location filename="../../widgets/reportcharts.cpp" line="130"/>
        <source>Idle</source>
        <translation>空闲</translation>
    </message>
    <message>
        <location filename="../../widgets/reportpdf.cpp" line="124"/>
        <source>%1 – %2 UTC (%3 days)</source>
        <translation>%1 – %2 UTC（%3 天）</translation>
    </message>
    <message>
        <location filename="../../widgets/reportpdf.cpp" line="134"/>
        <source>Meridian utilisation and cost report</source>
        <translation>Meridian 利用率与成本报告</translation>
    </message>
    <message>
        <location filename="../../widgets/reportpdf.cpp" line="138"/>
        <location filename="../../widgets/reportpdf.cpp" line="236"/>
        <source>%1: cannot write the PDF</source>
        <translation>%1：无法写入 PDF</translation>
    </message>
    <message>
        <location filename="../../widgets/reportpdf.cpp" line="141"/>
        <source>Utilisation and cost</source>
        <translation>利用率与成本</translation>
    </message>
    <message>
        <location filename="../../widgets/reportpdf.cpp" line="142"/>
        <source>%1, by %2</source>
        <translation>%1，按%2</translation>
    </message>
    <message>
        <location filename="../../widgets/reportpdf.cpp" line="147"/>
        <source>Cost of own cards: %1 CNY, of which idle cards %2 CNY (%3%).</source>
        <translation>自有卡成本：%1 元，其中空闲卡 %2 元（%3%）。</translation>
    </message>
    <message>
        <location filename="../../widgets/reportpdf.cpp" line="150"/>
        <source>%1 cards, %2 card-hours observed: %3 busy, %4 idle (busy %5%); energy %6 kWh.</source>
        <translation>%1 张卡，观测 %2 卡时：忙碌 %3，空闲 %4（忙碌 %5%）；能耗 %6 千瓦时。</translation>
    </message>
    <message>
        <location filename="../../widgets/reportpdf.cpp" line="158"/>
        <source>No cloud capacity was rented in this period.</source>
        <translation>本期间未租用云端算力。</translation>
    </message>
    <message numerus="yes">
        <location filename="../../widgets/reportpdf.cpp" line="160"/>
        <source>Cloud bursts: %1 CNY over %n lease(s).</source>
        <translation>
            <numerusform>云端扩容：%n 个租约共 %1 元。</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../../widgets/reportpdf.cpp" line="166"/>
        <source>%1 card-hours had no price in the price book and are not in the cost.</source>
        <translation>%1 卡时在价格表中没有价格，未计入成本。</translation>
    </message>
    <message>
        <location filename="../../widgets/reportpdf.cpp" line="177"/>
        <location filename="../../widgets/reportpdf.cpp" line="223"/>
        <source>Cards</source>
        <translation>卡数</translation>
    </message>
    <message>
        <location filename="../../widgets/reportpdf.cpp" line="178"/>
        <source>Card-hours</source>
        <translation>卡时</translation>
    </message>
    <message>
        <location filename="../../widgets/reportpdf.cpp" line="180"/>
        <source>Mean util.</source>
        <translation>平均利用率</translation>
    </message>
    <message>
        <location filename="../../widgets/reportpdf.cpp" line="181"/>
        <source>Idle (h)</source>
        <translation>空闲（时）</translation>
    </message>
    <message>
        <location filename="../../widgets/reportpdf.cpp" line="182"/>
        <location filename="../../widgets/reportpdf.cpp" line="224"/>
        <source>Cost (CNY)</source>
        <translation>成本（元）</translation>
    </message>
    <message>
        <location filename="../../widgets/reportpdf.cpp" line="183"/>
        <source>Idle (CNY)</source>
        <translation>空闲（元）</translation>
    </message>
    <message>
        <location filename="../../widgets/reportpdf.cpp" line="198"/>
        <location filename="../../widgets/reportpdf.cpp" line="220"/>
        <source>Total</source>
        <translation>合计</translation>
    </message>
    <message>
        <location filename="../../widgets/reportpdf.cpp" line="209"/>
        <source>Cloud leases</source>
        <translation>云端租约</translation>
    </message>
    <message>
        <location filename="../../widgets/reportpdf.cpp" line="222"/>
        <source>Lease</source>
        <translation>租约</translation>
    </message>
    <message>
        <location filename="../../widgets/reportpdf.cpp" line="222"/>
        <source>Region</source>
        <translation>区域</translation>
    </message>
    <message>
        <location filename="../../widgets/reportpdf.cpp" line="222"/>
        <source>Card model</source>
        <translation>卡型号</translation>
    </message>
    <message>
        <location filename="../../widgets/reportpdf.cpp" line="223"/>
        <source>CNY/card-h</source>
        <translation>元/卡时</translation>
    </message>
    <message>
        <location filename="../../widgets/reportpdf.cpp" line="223"/>
        <source>Billed h</source>
        <translation>计费小时</translation>
    </message>
    <message>
        <location filename="../../widgets/reportpdf.cpp" line="230"/>
        <source>Generated %1 UTC by Meridian. Own cards are priced by the price book in force at each minute; rented cloud capacity at what the pool charged, per started billing increment.</source>
        <translation>由 Meridian 于 %1 UTC 生成。自有卡按每分钟生效的价格表计价；租用的云端算力按资源池收取的价格、按已开始的计费周期计价。</translation>
    </message>
    <message>
        <location filename="../../widgets/reportswindow.cpp" line="58"/>
        <source>no price book: costs are not known</source>
        <translation>没有价格表：成本未知</translation>
    </message>
    <message>
        <location filename="../../widgets/fabricwindow.cpp" line="38"/>
        <source>unknown</source>
        <translation>未知</translation>
    </message>
    <message>
        <location filename="../../widgets/fabricwindow.cpp" line="39"/>
        <source>DOWN</source>
        <translation>中断</translation>
    </message>
    <message>
        <location filename="../../widgets/fabricwindow.cpp" line="40"/>
        <source>FLAPPING</source>
        <translation>抖动</translation>
    </message>
    <message>
        <location filename="../../widgets/fabricwindow.cpp" line="41"/>
        <source>up</source>
        <translation>正常</translation>
    </message>
    <message>
        <location filename="../../widgets/fabricwindow.cpp" line="43"/>
        <source>&lt;b&gt;%1 → %2&lt;/b&gt;&lt;br/&gt;uplink, %3 Gb/s; load %4 (estimated from the hosts below)</source>
        <translation>&lt;b&gt;%1 → %2&lt;/b&gt;&lt;br/&gt;上联链路，%3 Gb/s；负载 %4（由下挂主机估算）</translation>
    </message>
    <message>
        <location filename="../../widgets/fabricwindow.cpp" line="48"/>
        <source>&lt;b&gt;%1 %2 → %3 %4&lt;/b&gt;&lt;br/&gt;rail %5, %6 Gb/s, %7; load %8&lt;br/&gt;PFC pauses %9/s · ECN + CNP %10/s%11</source>
        <translation>&lt;b&gt;%1 %2 → %3 %4&lt;/b&gt;&lt;br/&gt;轨道 %5，%6 Gb/s，%7；负载 %8&lt;br/&gt;PFC 暂停 %9/秒 · ECN + CNP %10/秒%11</translation>
    </message>
    <message>
        <location filename="../../widgets/fabricwindow.cpp" line="57"/>
        <source>&lt;br/&gt;neighbour not reported lately: as last seen</source>
        <translation>&lt;br/&gt;邻居近期未上报：按最后一次所见显示</translation>
    </message>
</context>
<context>
    <name>meridian::AlertsModel</name>
    <message>
        <location filename="../../models/alertsmodel.cpp" line="54"/>
        <source>resolved</source>
        <translation>已恢复</translation>
    </message>
    <message>
        <location filename="../../models/alertsmodel.cpp" line="56"/>
        <source>silenced until %1</source>
        <translation>静默至 %1</translation>
    </message>
    <message>
        <location filename="../../models/alertsmodel.cpp" line="60"/>
        <source>acknowledged by %1</source>
        <translation>已由 %1 确认</translation>
    </message>
    <message>
        <location filename="../../models/alertsmodel.cpp" line="61"/>
        <source>open</source>
        <translation>未处理</translation>
    </message>
    <message>
        <location filename="../../models/alertsmodel.cpp" line="84"/>
        <source>critical</source>
        <translation>严重</translation>
    </message>
    <message>
        <location filename="../../models/alertsmodel.cpp" line="84"/>
        <source>warning</source>
        <translation>警告</translation>
    </message>
    <message>
        <location filename="../../models/alertsmodel.cpp" line="116"/>
        <source>Severity</source>
        <translation>级别</translation>
    </message>
    <message>
        <location filename="../../models/alertsmodel.cpp" line="117"/>
        <source>What</source>
        <translation>类型</translation>
    </message>
    <message>
        <location filename="../../models/alertsmodel.cpp" line="118"/>
        <source>Where</source>
        <translation>位置</translation>
    </message>
    <message>
        <location filename="../../models/alertsmodel.cpp" line="119"/>
        <source>Data center</source>
        <translation>数据中心</translation>
    </message>
    <message>
        <location filename="../../models/alertsmodel.cpp" line="120"/>
        <source>First seen</source>
        <translation>首次出现</translation>
    </message>
    <message>
        <location filename="../../models/alertsmodel.cpp" line="121"/>
        <source>Last seen</source>
        <translation>最近出现</translation>
    </message>
    <message>
        <location filename="../../models/alertsmodel.cpp" line="122"/>
        <source>Count</source>
        <translation>次数</translation>
    </message>
    <message>
        <location filename="../../models/alertsmodel.cpp" line="123"/>
        <source>State</source>
        <translation>状态</translation>
    </message>
    <message>
        <location filename="../../models/alertsmodel.cpp" line="124"/>
        <source>Note</source>
        <translation>备注</translation>
    </message>
</context>
<context>
    <name>meridian::AlertsPanel</name>
    <message>
        <location filename="../../widgets/alertspanel.cpp" line="68"/>
        <source>Acknowledge</source>
        <translation>确认</translation>
    </message>
    <message>
        <location filename="../../widgets/alertspanel.cpp" line="69"/>
        <source>Silence 1 h</source>
        <translation>静默 1 小时</translation>
    </message>
    <message>
        <location filename="../../widgets/alertspanel.cpp" line="70"/>
        <source>Silence 8 h</source>
        <translation>静默 8 小时</translation>
    </message>
    <message>
        <location filename="../../widgets/alertspanel.cpp" line="71"/>
        <source>Note…</source>
        <translation>备注…</translation>
    </message>
    <message>
        <location filename="../../widgets/alertspanel.cpp" line="72"/>
        <source>Open only</source>
        <translation>仅未处理</translation>
    </message>
    <message>
        <location filename="../../widgets/alertspanel.cpp" line="124"/>
        <source>Note</source>
        <translation>备注</translation>
    </message>
    <message>
        <location filename="../../widgets/alertspanel.cpp" line="124"/>
        <source>Note for %1:</source>
        <translation>%1 的备注：</translation>
    </message>
</context>
<context>
    <name>meridian::CardDetailPanel</name>
    <message>
        <location filename="../../widgets/carddetailpanel.cpp" line="33"/>
        <source>Select a card in the fleet to see its history.</source>
        <translation>在集群中选择一张卡以查看其历史。</translation>
    </message>
    <message>
        <location filename="../../widgets/carddetailpanel.cpp" line="51"/>
        <source>Recent events on this node</source>
        <translation>该节点最近的事件</translation>
    </message>
    <message>
        <location filename="../../widgets/carddetailpanel.cpp" line="79"/>
        <source>%1 · card %2 · %3</source>
        <translation>%1 · 卡 %2 · %3</translation>
    </message>
    <message>
        <location filename="../../widgets/carddetailpanel.cpp" line="83"/>
        <source>stale</source>
        <translation>已过期</translation>
    </message>
    <message>
        <location filename="../../widgets/carddetailpanel.cpp" line="83"/>
        <source>live</source>
        <translation>在线</translation>
    </message>
    <message>
        <location filename="../../widgets/carddetailpanel.cpp" line="85"/>
        <source>unreachable: %1</source>
        <translation>无法连接：%1</translation>
    </message>
    <message>
        <source>Last 15 minutes</source>
        <translation>最近 15 分钟</translation>
    </message>
    <message>
        <source>Last hour</source>
        <translation>最近 1 小时</translation>
    </message>
    <message>
        <source>Last 6 hours</source>
        <translation>最近 6 小时</translation>
    </message>
    <message>
        <source>Last 24 hours</source>
        <translation>最近 24 小时</translation>
    </message>
    <message>
        <source>Last 7 days</source>
        <translation>最近 7 天</translation>
    </message>
    <message>
        <source>Longer periods come from the Prometheus-compatible store that holds the card; agents&apos; cards show the last 15 minutes</source>
        <translation>更长的时段来自保存该卡数据的 Prometheus 兼容存储；由代理上报的卡显示最近 15 分钟</translation>
    </message>
    <message>
        <source>, reading %1 s old</source>
        <translation>，读数已过 %1 秒</translation>
    </message>
    <message>
        <source>; store history: %1</source>
        <translation>；存储历史：%1</translation>
    </message>
    <message>
        <location filename="../../widgets/carddetailpanel.cpp" line="87"/>
        <source>UUID %1&lt;br&gt;%2 · rack %3 · %4 · agent %5 (%6)</source>
        <translation>UUID %1&lt;br&gt;%2 · 机架 %3 · %4 · 代理 %5（%6）</translation>
    </message>
</context>
<context>
    <name>meridian::DataCenterSummaryModel</name>
    <message>
        <location filename="../../models/datacentersummarymodel.cpp" line="110"/>
        <source>%1 of %2</source>
        <translation>%1 / %2</translation>
    </message>
    <message>
        <location filename="../../models/datacentersummarymodel.cpp" line="120"/>
        <source>%1 of %2 reporting cards at or above %3% utilisation</source>
        <translation>%2 张上报卡中有 %1 张利用率不低于 %3%</translation>
    </message>
    <message>
        <location filename="../../models/datacentersummarymodel.cpp" line="134"/>
        <source>Data center</source>
        <translation>数据中心</translation>
    </message>
    <message>
        <location filename="../../models/datacentersummarymodel.cpp" line="135"/>
        <source>Cards</source>
        <translation>卡数</translation>
    </message>
    <message>
        <location filename="../../models/datacentersummarymodel.cpp" line="136"/>
        <source>Busy</source>
        <translation>忙碌</translation>
    </message>
    <message>
        <location filename="../../models/datacentersummarymodel.cpp" line="137"/>
        <source>Mean utilisation</source>
        <translation>平均利用率</translation>
    </message>
    <message>
        <location filename="../../models/datacentersummarymodel.cpp" line="138"/>
        <source>Domestic</source>
        <translation>国产占比</translation>
    </message>
    <message>
        <location filename="../../models/datacentersummarymodel.cpp" line="139"/>
        <source>Nodes stale</source>
        <translation>过期节点</translation>
    </message>
    <message>
        <location filename="../../models/datacentersummarymodel.cpp" line="140"/>
        <source>Open alerts</source>
        <translation>未处理告警</translation>
    </message>
</context>
<context>
    <name>meridian::FabricWindow</name>
    <message>
        <location filename="../../widgets/fabricwindow.cpp" line="67"/>
        <source>Meridian — RoCE fabric</source>
        <translation>Meridian — RoCE 网络</translation>
    </message>
    <message>
        <location filename="../../widgets/fabricwindow.cpp" line="68"/>
        <source>Fabric</source>
        <translation>网络</translation>
    </message>
    <message>
        <location filename="../../widgets/fabricwindow.cpp" line="70"/>
        <source>Data center </source>
        <translation>数据中心 </translation>
    </message>
    <message>
        <location filename="../../widgets/fabricwindow.cpp" line="73"/>
        <source>  Rail </source>
        <translation>  轨道 </translation>
    </message>
    <message>
        <location filename="../../widgets/fabricwindow.cpp" line="75"/>
        <source>All</source>
        <translation>全部</translation>
    </message>
    <message>
        <location filename="../../widgets/fabricwindow.cpp" line="79"/>
        <source>Fit</source>
        <translation>适应窗口</translation>
    </message>
    <message>
        <location filename="../../widgets/fabricwindow.cpp" line="81"/>
        <source>Path </source>
        <translation>路径 </translation>
    </message>
    <message>
        <location filename="../../widgets/fabricwindow.cpp" line="83"/>
        <source>from node</source>
        <translation>起点节点</translation>
    </message>
    <message>
        <location filename="../../widgets/fabricwindow.cpp" line="85"/>
        <source>to node</source>
        <translation>终点节点</translation>
    </message>
    <message>
        <location filename="../../widgets/fabricwindow.cpp" line="88"/>
        <source>Show</source>
        <translation>显示</translation>
    </message>
    <message>
        <location filename="../../widgets/fabricwindow.cpp" line="100"/>
        <source>Fabric file: %1</source>
        <translation>网络拓扑文件：%1</translation>
    </message>
    <message>
        <location filename="../../widgets/fabricwindow.cpp" line="102"/>
        <source>Findings</source>
        <translation>发现的问题</translation>
    </message>
    <message>
        <location filename="../../widgets/fabricwindow.cpp" line="106"/>
        <source>Click a link, a switch or a host.</source>
        <translation>点击链路、交换机或主机。</translation>
    </message>
    <message>
        <location filename="../../widgets/fabricwindow.cpp" line="110"/>
        <source>Alerts for this link</source>
        <translation>该链路的告警</translation>
    </message>
    <message>
        <location filename="../../widgets/fabricwindow.cpp" line="119"/>
        <source>Load</source>
        <translation>负载</translation>
    </message>
    <message>
        <location filename="../../widgets/fabricwindow.cpp" line="120"/>
        <source>PFC pauses</source>
        <translation>PFC 暂停</translation>
    </message>
    <message>
        <location filename="../../widgets/fabricwindow.cpp" line="120"/>
        <source>per s</source>
        <translation>每秒</translation>
    </message>
    <message>
        <location filename="../../widgets/fabricwindow.cpp" line="255"/>
        <source>Meridian — RoCE fabric — %1: %2 hosts, %3 host links, %4 findings</source>
        <translation>Meridian — RoCE 网络 — %1：%2 台主机，%3 条主机链路，%4 个问题</translation>
    </message>
    <message>
        <location filename="../../widgets/fabricwindow.cpp" line="286"/>
        <source>&lt;b&gt;%1 links to %2&lt;/b&gt;&lt;br/&gt;highest load %3%, PFC %4/s, ECN + CNP %5/s. Zoom in to see each host.</source>
        <translation>&lt;b&gt;%1 条链路连到 %2&lt;/b&gt;&lt;br/&gt;最高负载 %3%，PFC %4/秒，ECN + CNP %5/秒。放大以查看每台主机。</translation>
    </message>
    <message>
        <location filename="../../widgets/fabricwindow.cpp" line="307"/>
        <source>&lt;b&gt;%1&lt;/b&gt;: %2 links</source>
        <translation>&lt;b&gt;%1&lt;/b&gt;：%2 条链路</translation>
    </message>
    <message>
        <location filename="../../widgets/fabricwindow.cpp" line="314"/>
        <source>No path: %1</source>
        <translation>没有路径：%1</translation>
    </message>
    <message>
        <location filename="../../widgets/fabricwindow.cpp" line="321"/>
        <source>&lt;b&gt;Path on rail %1&lt;/b&gt;&lt;br/&gt;%2</source>
        <translation>&lt;b&gt;轨道 %1 上的路径&lt;/b&gt;&lt;br/&gt;%2</translation>
    </message>
</context>
<context>
    <name>meridian::FleetHeatmap</name>
    <message>
        <location filename="../../widgets/fleetheatmap.cpp" line="29"/>
        <source>%1 — %2 cards</source>
        <translation>%1 — %2 张卡</translation>
    </message>
    <message>
        <location filename="../../widgets/fleetheatmap.cpp" line="40"/>
        <source> · %1 of %2 agents unreachable</source>
        <translation> · %2 个代理中 %1 个无法连接</translation>
    </message>
    <message>
        <location filename="../../widgets/fleetheatmap.cpp" line="44"/>
        <source> · %1 stale</source>
        <translation> · %1 个已过期</translation>
    </message>
    <message>
        <location filename="../../widgets/fleetheatmap.cpp" line="254"/>
        <source>unreachable: %1</source>
        <translation>无法连接：%1</translation>
    </message>
    <message>
        <location filename="../../widgets/fleetheatmap.cpp" line="259"/>
        <source>stale: last seen %1</source>
        <translation>已过期：最后一次看到于 %1</translation>
    </message>
    <message>
        <location filename="../../widgets/fleetheatmap.cpp" line="270"/>
        <source>card %1 · %2</source>
        <translation>卡 %1 · %2</translation>
    </message>
    <message numerus="yes">
        <location filename="../../widgets/fleetheatmap.cpp" line="284"/>
        <source>%n error event(s)</source>
        <translation>
            <numerusform>%n 个错误事件</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>meridian::HeatmapLegend</name>
    <message>
        <location filename="../../widgets/heatmaplegend.cpp" line="75"/>
        <source>no reading</source>
        <translation>无读数</translation>
    </message>
    <message>
        <location filename="../../widgets/heatmaplegend.cpp" line="76"/>
        <source>stale</source>
        <translation>已过期</translation>
    </message>
</context>
<context>
    <name>meridian::MainWindow</name>
    <message>
        <location filename="../../widgets/mainwindow.cpp" line="44"/>
        <source>Meridian — fleet</source>
        <translation>Meridian — 集群</translation>
    </message>
    <message>
        <location filename="../../widgets/mainwindow.cpp" line="73"/>
        <source>Card</source>
        <translation>卡</translation>
    </message>
    <message>
        <location filename="../../widgets/mainwindow.cpp" line="83"/>
        <source>Alerts</source>
        <translation>告警</translation>
    </message>
    <message>
        <location filename="../../widgets/mainwindow.cpp" line="95"/>
        <source>Alerts (%1 open)</source>
        <translation>告警（%1 条未处理）</translation>
    </message>
    <message>
        <location filename="../../widgets/mainwindow.cpp" line="115"/>
        <source>Fleet</source>
        <translation>集群</translation>
    </message>
    <message>
        <location filename="../../widgets/mainwindow.cpp" line="118"/>
        <source>Colour by </source>
        <translation>着色依据 </translation>
    </message>
    <message>
        <location filename="../../widgets/mainwindow.cpp" line="125"/>
        <source> Data center </source>
        <translation> 数据中心 </translation>
    </message>
    <message>
        <location filename="../../widgets/mainwindow.cpp" line="127"/>
        <location filename="../../widgets/mainwindow.cpp" line="132"/>
        <location filename="../../widgets/mainwindow.cpp" line="141"/>
        <location filename="../../widgets/mainwindow.cpp" line="146"/>
        <source>All</source>
        <translation>全部</translation>
    </message>
    <message>
        <location filename="../../widgets/mainwindow.cpp" line="130"/>
        <source> Vendor </source>
        <translation> 厂商 </translation>
    </message>
    <message>
        <location filename="../../widgets/mainwindow.cpp" line="139"/>
        <source> Model </source>
        <translation> 型号 </translation>
    </message>
    <message>
        <location filename="../../widgets/mainwindow.cpp" line="144"/>
        <source> State </source>
        <translation> 状态 </translation>
    </message>
    <message>
        <location filename="../../widgets/mainwindow.cpp" line="147"/>
        <source>Live</source>
        <translation>在线</translation>
    </message>
    <message>
        <location filename="../../widgets/mainwindow.cpp" line="148"/>
        <source>Stale</source>
        <translation>已过期</translation>
    </message>
    <message>
        <location filename="../../widgets/mainwindow.cpp" line="149"/>
        <source>Unreachable</source>
        <translation>无法连接</translation>
    </message>
    <message>
        <location filename="../../widgets/mainwindow.cpp" line="150"/>
        <source>With errors</source>
        <translation>有错误</translation>
    </message>
    <message>
        <location filename="../../widgets/mainwindow.cpp" line="151"/>
        <source>No reading</source>
        <translation>无读数</translation>
    </message>
    <message>
        <location filename="../../widgets/mainwindow.cpp" line="155"/>
        <source>Search host, node or card UUID (Ctrl+F)</source>
        <translation>搜索主机、节点或卡 UUID（Ctrl+F）</translation>
    </message>
    <message>
        <location filename="../../widgets/mainwindow.cpp" line="160"/>
        <source>Search</source>
        <translation>搜索</translation>
    </message>
    <message>
        <location filename="../../widgets/mainwindow.cpp" line="206"/>
        <source>&amp;View</source>
        <translation>视图(&amp;V)</translation>
    </message>
    <message>
        <location filename="../../widgets/mainwindow.cpp" line="209"/>
        <source>RoCE &amp;fabric…</source>
        <translation>RoCE 网络(&amp;F)…</translation>
    </message>
    <message>
        <location filename="../../widgets/mainwindow.cpp" line="211"/>
        <source>&amp;Alerts</source>
        <translation>告警(&amp;A)</translation>
    </message>
    <message>
        <location filename="../../widgets/mainwindow.cpp" line="218"/>
        <source>&amp;Theme</source>
        <translation>主题(&amp;T)</translation>
    </message>
    <message>
        <location filename="../../widgets/mainwindow.cpp" line="220"/>
        <source>System</source>
        <translation>跟随系统</translation>
    </message>
    <message>
        <location filename="../../widgets/mainwindow.cpp" line="221"/>
        <source>Light</source>
        <translation>浅色</translation>
    </message>
    <message>
        <location filename="../../widgets/mainwindow.cpp" line="222"/>
        <source>Dark</source>
        <translation>深色</translation>
    </message>
    <message>
        <location filename="../../widgets/mainwindow.cpp" line="235"/>
        <source>&amp;Reports</source>
        <translation>报告(&amp;R)</translation>
    </message>
    <message>
        <location filename="../../widgets/mainwindow.cpp" line="237"/>
        <source>&amp;Utilisation and cost…</source>
        <translation>利用率与成本(&amp;U)…</translation>
    </message>
    <message>
        <location filename="../../widgets/mainwindow.cpp" line="239"/>
        <source>&amp;Price book…</source>
        <translation>价格表(&amp;P)…</translation>
    </message>
    <message>
        <location filename="../../widgets/mainwindow.cpp" line="240"/>
        <source>&amp;Scaling</source>
        <translation>扩容(&amp;S)</translation>
    </message>
    <message>
        <location filename="../../widgets/mainwindow.cpp" line="241"/>
        <source>&amp;Elastic scaling…</source>
        <translation>弹性扩容(&amp;E)…</translation>
    </message>
    <message>
        <location filename="../../widgets/mainwindow.cpp" line="244"/>
        <source>&amp;Help</source>
        <translation>帮助(&amp;H)</translation>
    </message>
    <message>
        <location filename="../../widgets/mainwindow.cpp" line="245"/>
        <source>&amp;Diagnostics</source>
        <translation>诊断(&amp;D)</translation>
    </message>
    <message>
        <location filename="../../widgets/mainwindow.cpp" line="289"/>
        <source>No alert for %1 %2</source>
        <translation>%1 %2 没有告警</translation>
    </message>
    <message>
        <location filename="../../widgets/mainwindow.cpp" line="314"/>
        <source>Diagnostics</source>
        <translation>诊断</translation>
    </message>
    <message>
        <location filename="../../widgets/mainwindow.cpp" line="326"/>
        <source>Agents: %1 (%2 live, %3 stale, %4 unreachable)&lt;br&gt;Cards: %5&lt;br&gt;Telemetry: %6 batches/s&lt;br&gt;UI event-loop lag: p50 %7 ms, p99 %8 ms, max %9 ms&lt;br&gt;Memory: %10 MiB · CPU: %11% of one core</source>
        <translation>代理：%1（在线 %2，过期 %3，无法连接 %4）&lt;br&gt;卡：%5&lt;br&gt;遥测：每秒 %6 批&lt;br&gt;界面事件循环延迟：p50 %7 毫秒，p99 %8 毫秒，最大 %9 毫秒&lt;br&gt;内存：%10 MiB · CPU：单核的 %11%</translation>
    </message>
    <message>
        <location filename="../../widgets/mainwindow.cpp" line="409"/>
        <source>%1 agents: %2 live, %3 stale, %4 unreachable · %5 cards</source>
        <translation>%1 个代理：在线 %2，过期 %3，无法连接 %4 · %5 张卡</translation>
    </message>
    <message>
        <source> · newest reading %1 s old</source>
        <translation> · 最新读数已过 %1 秒</translation>
    </message>
    <message>
        <location filename="../../widgets/mainwindow.cpp" line="416"/>
        <source> · %1 match the filter</source>
        <translation> · %1 张符合筛选</translation>
    </message>
</context>
<context>
    <name>meridian::PriceBookDialog</name>
    <message>
        <location filename="../../widgets/pricebookdialog.cpp" line="53"/>
        <source>Price book</source>
        <translation>价格表</translation>
    </message>
    <message>
        <location filename="../../widgets/pricebookdialog.cpp" line="54"/>
        <location filename="../../widgets/pricebookdialog.cpp" line="57"/>
        <source>Card model</source>
        <translation>卡型号</translation>
    </message>
    <message>
        <location filename="../../widgets/pricebookdialog.cpp" line="54"/>
        <source>Vendor</source>
        <translation>厂商</translation>
    </message>
    <message>
        <location filename="../../widgets/pricebookdialog.cpp" line="54"/>
        <location filename="../../widgets/pricebookdialog.cpp" line="57"/>
        <source>Data center</source>
        <translation>数据中心</translation>
    </message>
    <message>
        <location filename="../../widgets/pricebookdialog.cpp" line="54"/>
        <source>CNY per card-hour</source>
        <translation>每卡时价格（元）</translation>
    </message>
    <message>
        <location filename="../../widgets/pricebookdialog.cpp" line="55"/>
        <location filename="../../widgets/pricebookdialog.cpp" line="58"/>
        <source>From (UTC)</source>
        <translation>起始（UTC）</translation>
    </message>
    <message>
        <location filename="../../widgets/pricebookdialog.cpp" line="55"/>
        <location filename="../../widgets/pricebookdialog.cpp" line="58"/>
        <source>To (UTC)</source>
        <translation>截止（UTC）</translation>
    </message>
    <message>
        <location filename="../../widgets/pricebookdialog.cpp" line="57"/>
        <source>Customer</source>
        <translation>客户</translation>
    </message>
    <message>
        <location filename="../../widgets/pricebookdialog.cpp" line="57"/>
        <source>Node</source>
        <translation>节点</translation>
    </message>
    <message>
        <location filename="../../widgets/pricebookdialog.cpp" line="58"/>
        <source>Discount %</source>
        <translation>折扣 %</translation>
    </message>
    <message>
        <location filename="../../widgets/pricebookdialog.cpp" line="61"/>
        <source>The most specific price wins: a card model over a vendor, a data center over any. Prices in force are history: set an end, or add a new price from now on. Contracts of six months or more get 10% off unless they state a discount.</source>
        <translation>最具体的价格优先：卡型号优先于厂商，指定数据中心优先于任意数据中心。已生效的价格属于历史：只能设置截止时间，或从现在起新增价格。六个月及以上的合同享受 9 折，除非另有约定折扣。</translation>
    </message>
    <message>
        <location filename="../../widgets/pricebookdialog.cpp" line="66"/>
        <source>Add price</source>
        <translation>新增价格</translation>
    </message>
    <message>
        <location filename="../../widgets/pricebookdialog.cpp" line="67"/>
        <source>Add contract</source>
        <translation>新增合同</translation>
    </message>
    <message>
        <location filename="../../widgets/pricebookdialog.cpp" line="81"/>
        <source>&lt;b&gt;Prices&lt;/b&gt;</source>
        <translation>&lt;b&gt;价格&lt;/b&gt;</translation>
    </message>
    <message>
        <location filename="../../widgets/pricebookdialog.cpp" line="84"/>
        <source>&lt;b&gt;Contracts&lt;/b&gt;</source>
        <translation>&lt;b&gt;合同&lt;/b&gt;</translation>
    </message>
    <message>
        <location filename="../../widgets/pricebookdialog.cpp" line="88"/>
        <source>Saved to %1</source>
        <translation>保存到 %1</translation>
    </message>
    <message>
        <location filename="../../widgets/pricebookdialog.cpp" line="130"/>
        <source>In force since %1: only its end can change</source>
        <translation>自 %1 起生效：只能修改截止时间</translation>
    </message>
    <message>
        <location filename="../../widgets/pricebookdialog.cpp" line="171"/>
        <location filename="../../widgets/pricebookdialog.cpp" line="175"/>
        <location filename="../../widgets/pricebookdialog.cpp" line="178"/>
        <location filename="../../widgets/pricebookdialog.cpp" line="183"/>
        <location filename="../../widgets/pricebookdialog.cpp" line="185"/>
        <location filename="../../widgets/pricebookdialog.cpp" line="191"/>
        <source>Prices</source>
        <translation>价格</translation>
    </message>
    <message>
        <location filename="../../widgets/pricebookdialog.cpp" line="172"/>
        <source>vendor must be nvidia, huawei, cambricon or hygon</source>
        <translation>厂商必须是 nvidia、huawei、cambricon 或 hygon</translation>
    </message>
    <message>
        <location filename="../../widgets/pricebookdialog.cpp" line="175"/>
        <source>name a card model, a vendor or a data center</source>
        <translation>请填写卡型号、厂商或数据中心</translation>
    </message>
    <message>
        <location filename="../../widgets/pricebookdialog.cpp" line="179"/>
        <source>CNY per card-hour must be a number from 0 to 10000</source>
        <translation>每卡时价格必须是 0 到 10000 之间的数字</translation>
    </message>
    <message>
        <location filename="../../widgets/pricebookdialog.cpp" line="183"/>
        <source>From must be a date such as 2026-07-01</source>
        <translation>起始必须是日期，例如 2026-07-01</translation>
    </message>
    <message>
        <location filename="../../widgets/pricebookdialog.cpp" line="186"/>
        <source>a new price starts now or later; the past keeps its prices</source>
        <translation>新价格只能从现在或以后开始；过去保持原价</translation>
    </message>
    <message>
        <location filename="../../widgets/pricebookdialog.cpp" line="191"/>
        <source>To must be a date after From</source>
        <translation>截止必须晚于起始</translation>
    </message>
    <message>
        <location filename="../../widgets/pricebookdialog.cpp" line="204"/>
        <location filename="../../widgets/pricebookdialog.cpp" line="206"/>
        <location filename="../../widgets/pricebookdialog.cpp" line="214"/>
        <source>Contracts</source>
        <translation>合同</translation>
    </message>
    <message>
        <location filename="../../widgets/pricebookdialog.cpp" line="204"/>
        <source>a contract needs From and a later To</source>
        <translation>合同需要起始和更晚的截止</translation>
    </message>
    <message>
        <location filename="../../widgets/pricebookdialog.cpp" line="207"/>
        <source>a new contract starts now or later; the past keeps its prices</source>
        <translation>新合同只能从现在或以后开始；过去保持原价</translation>
    </message>
    <message>
        <location filename="../../widgets/pricebookdialog.cpp" line="214"/>
        <source>Discount % must be 0 to 100, or empty</source>
        <translation>折扣 % 必须在 0 到 100 之间，或留空</translation>
    </message>
</context>
<context>
    <name>meridian::ReportTableModel</name>
    <message>
        <location filename="../../models/reporttablemodel.cpp" line="62"/>
        <source>(no service)</source>
        <translation>（无服务）</translation>
    </message>
    <message>
        <location filename="../../models/reporttablemodel.cpp" line="69"/>
        <source>Data center</source>
        <translation>数据中心</translation>
    </message>
    <message>
        <location filename="../../models/reporttablemodel.cpp" line="70"/>
        <source>Vendor</source>
        <translation>厂商</translation>
    </message>
    <message>
        <location filename="../../models/reporttablemodel.cpp" line="71"/>
        <source>Card model</source>
        <translation>卡型号</translation>
    </message>
    <message>
        <location filename="../../models/reporttablemodel.cpp" line="72"/>
        <source>Node</source>
        <translation>节点</translation>
    </message>
    <message>
        <location filename="../../models/reporttablemodel.cpp" line="73"/>
        <source>Inference service</source>
        <translation>推理服务</translation>
    </message>
    <message>
        <location filename="../../models/reporttablemodel.cpp" line="87"/>
        <source>Total</source>
        <translation>合计</translation>
    </message>
    <message>
        <location filename="../../models/reporttablemodel.cpp" line="109"/>
        <source>Card-hours no price in the price book covers: counted, not billed</source>
        <translation>价格表未覆盖的卡时：计入统计，不计费</translation>
    </message>
    <message>
        <location filename="../../models/reporttablemodel.cpp" line="118"/>
        <source>Share of observed card-hours at or above 5% utilisation</source>
        <translation>利用率不低于 5% 的观测卡时占比</translation>
    </message>
    <message>
        <location filename="../../models/reporttablemodel.cpp" line="123"/>
        <source>Cards</source>
        <translation>卡数</translation>
    </message>
    <message>
        <location filename="../../models/reporttablemodel.cpp" line="124"/>
        <source>Card-hours</source>
        <translation>卡时</translation>
    </message>
    <message>
        <location filename="../../models/reporttablemodel.cpp" line="125"/>
        <source>Busy</source>
        <translation>忙碌</translation>
    </message>
    <message>
        <location filename="../../models/reporttablemodel.cpp" line="126"/>
        <source>Mean utilisation</source>
        <translation>平均利用率</translation>
    </message>
    <message>
        <location filename="../../models/reporttablemodel.cpp" line="127"/>
        <source>Idle card-hours</source>
        <translation>空闲卡时</translation>
    </message>
    <message>
        <location filename="../../models/reporttablemodel.cpp" line="128"/>
        <source>Cost (CNY)</source>
        <translation>成本（元）</translation>
    </message>
    <message>
        <location filename="../../models/reporttablemodel.cpp" line="129"/>
        <source>Idle cost (CNY)</source>
        <translation>空闲成本（元）</translation>
    </message>
    <message>
        <location filename="../../models/reporttablemodel.cpp" line="130"/>
        <source>Energy (kWh)</source>
        <translation>能耗（千瓦时）</translation>
    </message>
    <message>
        <location filename="../../models/reporttablemodel.cpp" line="131"/>
        <source>Unpriced card-hours</source>
        <translation>未计价卡时</translation>
    </message>
</context>
<context>
    <name>meridian::ReportsWindow</name>
    <message>
        <location filename="../../widgets/reportswindow.cpp" line="69"/>
        <source>Meridian — utilisation and cost</source>
        <translation>Meridian — 利用率与成本</translation>
    </message>
    <message>
        <location filename="../../widgets/reportswindow.cpp" line="89"/>
        <source>This month</source>
        <translation>本月</translation>
    </message>
    <message>
        <location filename="../../widgets/reportswindow.cpp" line="90"/>
        <source>Last month</source>
        <translation>上月</translation>
    </message>
    <message>
        <location filename="../../widgets/reportswindow.cpp" line="91"/>
        <source>Last 7 days</source>
        <translation>最近 7 天</translation>
    </message>
    <message>
        <location filename="../../widgets/reportswindow.cpp" line="92"/>
        <source>Last 30 days</source>
        <translation>最近 30 天</translation>
    </message>
    <message>
        <location filename="../../widgets/reportswindow.cpp" line="93"/>
        <source>Custom</source>
        <translation>自定义</translation>
    </message>
    <message>
        <location filename="../../widgets/reportswindow.cpp" line="105"/>
        <source>Daily</source>
        <translation>按日</translation>
    </message>
    <message>
        <location filename="../../widgets/reportswindow.cpp" line="106"/>
        <source>Weekly</source>
        <translation>按周</translation>
    </message>
    <message>
        <location filename="../../widgets/reportswindow.cpp" line="107"/>
        <source>Refresh</source>
        <translation>刷新</translation>
    </message>
    <message>
        <location filename="../../widgets/reportswindow.cpp" line="108"/>
        <source>Export CSV…</source>
        <translation>导出 CSV…</translation>
    </message>
    <message>
        <location filename="../../widgets/reportswindow.cpp" line="109"/>
        <source>Export PDF…</source>
        <translation>导出 PDF…</translation>
    </message>
    <message>
        <location filename="../../widgets/reportswindow.cpp" line="110"/>
        <source>Price book…</source>
        <translation>价格表…</translation>
    </message>
    <message>
        <location filename="../../widgets/reportswindow.cpp" line="113"/>
        <source>Period</source>
        <translation>期间</translation>
    </message>
    <message>
        <location filename="../../widgets/reportswindow.cpp" line="118"/>
        <source>UTC, by</source>
        <translation>UTC，按</translation>
    </message>
    <message>
        <location filename="../../widgets/reportswindow.cpp" line="150"/>
        <source>Cloud lease</source>
        <translation>云端租约</translation>
    </message>
    <message>
        <location filename="../../widgets/reportswindow.cpp" line="150"/>
        <source>Region</source>
        <translation>区域</translation>
    </message>
    <message>
        <location filename="../../widgets/reportswindow.cpp" line="150"/>
        <source>Card model</source>
        <translation>卡型号</translation>
    </message>
    <message>
        <location filename="../../widgets/reportswindow.cpp" line="151"/>
        <source>Cards</source>
        <translation>卡数</translation>
    </message>
    <message>
        <location filename="../../widgets/reportswindow.cpp" line="151"/>
        <source>CNY per card-hour</source>
        <translation>每卡时价格（元）</translation>
    </message>
    <message>
        <location filename="../../widgets/reportswindow.cpp" line="151"/>
        <source>Billed hours</source>
        <translation>计费小时</translation>
    </message>
    <message>
        <location filename="../../widgets/reportswindow.cpp" line="152"/>
        <source>Cost (CNY)</source>
        <translation>成本（元）</translation>
    </message>
    <message>
        <location filename="../../widgets/reportswindow.cpp" line="194"/>
        <source>Export CSV</source>
        <translation>导出 CSV</translation>
    </message>
    <message>
        <location filename="../../widgets/reportswindow.cpp" line="194"/>
        <source>CSV (*.csv)</source>
        <translation>CSV（*.csv）</translation>
    </message>
    <message>
        <location filename="../../widgets/reportswindow.cpp" line="198"/>
        <location filename="../../widgets/reportswindow.cpp" line="207"/>
        <source>Saved %1</source>
        <translation>已保存 %1</translation>
    </message>
    <message>
        <location filename="../../widgets/reportswindow.cpp" line="203"/>
        <source>Export PDF</source>
        <translation>导出 PDF</translation>
    </message>
    <message>
        <location filename="../../widgets/reportswindow.cpp" line="203"/>
        <source>PDF (*.pdf)</source>
        <translation>PDF（*.pdf）</translation>
    </message>
    <message>
        <location filename="../../widgets/reportswindow.cpp" line="289"/>
        <source>Reports need the cost history, which is off in this session.</source>
        <translation>报告需要成本历史，本次会话中成本历史已停用。</translation>
    </message>
    <message>
        <location filename="../../widgets/reportswindow.cpp" line="303"/>
        <source>The period is empty: the last day comes before the first.</source>
        <translation>期间为空：结束日期早于开始日期。</translation>
    </message>
    <message>
        <location filename="../../widgets/reportswindow.cpp" line="308"/>
        <source>Building the report…</source>
        <translation>正在生成报告…</translation>
    </message>
    <message>
        <location filename="../../widgets/reportswindow.cpp" line="334"/>
        <source>%1 CNY</source>
        <translation>%1 元</translation>
    </message>
    <message>
        <location filename="../../widgets/reportswindow.cpp" line="335"/>
        <source>Cost of own cards</source>
        <translation>自有卡成本</translation>
    </message>
    <message>
        <location filename="../../widgets/reportswindow.cpp" line="336"/>
        <source>%1 cards</source>
        <translation>%1 张卡</translation>
    </message>
    <message>
        <location filename="../../widgets/reportswindow.cpp" line="338"/>
        <source>Paid for idle cards</source>
        <translation>空闲卡花费</translation>
    </message>
    <message>
        <location filename="../../widgets/reportswindow.cpp" line="339"/>
        <source>%1% of the cost</source>
        <translation>占成本的 %1%</translation>
    </message>
    <message>
        <location filename="../../widgets/reportswindow.cpp" line="341"/>
        <source>Busy card-hours</source>
        <translation>忙碌卡时</translation>
    </message>
    <message>
        <location filename="../../widgets/reportswindow.cpp" line="343"/>
        <source>%1 busy, %2 idle</source>
        <translation>忙碌 %1，空闲 %2</translation>
    </message>
    <message>
        <location filename="../../widgets/reportswindow.cpp" line="346"/>
        <source>Cloud bursts</source>
        <translation>云端扩容</translation>
    </message>
    <message numerus="yes">
        <location filename="../../widgets/reportswindow.cpp" line="347"/>
        <source>%n lease(s)</source>
        <translation>
            <numerusform>%n 个租约</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../../widgets/reportswindow.cpp" line="375"/>
        <source>no usage recorded in this period</source>
        <translation>本期间没有用量记录</translation>
    </message>
    <message>
        <location filename="../../widgets/reportswindow.cpp" line="378"/>
        <source>%1 card-hours have no price in the price book</source>
        <translation>%1 卡时在价格表中没有价格</translation>
    </message>
    <message>
        <location filename="../../widgets/reportswindow.cpp" line="393"/>
        <location filename="../../widgets/reportswindow.cpp" line="405"/>
        <source>No report to export yet.</source>
        <translation>还没有可导出的报告。</translation>
    </message>
</context>
<context>
    <name>meridian::ScalingCharts</name>
    <message>
        <location filename="../../widgets/scalingcharts.cpp" line="101"/>
        <source>Replicas</source>
        <translation>副本</translation>
    </message>
    <message>
        <location filename="../../widgets/scalingcharts.cpp" line="102"/>
        <source>serving</source>
        <translation>服务中</translation>
    </message>
    <message>
        <location filename="../../widgets/scalingcharts.cpp" line="103"/>
        <source>starting</source>
        <translation>启动中</translation>
    </message>
    <message>
        <location filename="../../widgets/scalingcharts.cpp" line="104"/>
        <source>desired</source>
        <translation>期望</translation>
    </message>
    <message>
        <location filename="../../widgets/scalingcharts.cpp" line="106"/>
        <source>replicas</source>
        <translation>副本数</translation>
    </message>
    <message>
        <location filename="../../widgets/scalingcharts.cpp" line="110"/>
        <source>Load and latency</source>
        <translation>负载与延迟</translation>
    </message>
    <message>
        <location filename="../../widgets/scalingcharts.cpp" line="111"/>
        <source>arrivals (req/s)</source>
        <translation>到达（请求/秒）</translation>
    </message>
    <message>
        <location filename="../../widgets/scalingcharts.cpp" line="112"/>
        <source>TTFT p95 (s)</source>
        <translation>首字延迟 p95（秒）</translation>
    </message>
    <message>
        <location filename="../../widgets/scalingcharts.cpp" line="113"/>
        <source>objective (s)</source>
        <translation>目标（秒）</translation>
    </message>
    <message>
        <location filename="../../widgets/scalingcharts.cpp" line="115"/>
        <source>req/s</source>
        <translation>请求/秒</translation>
    </message>
    <message>
        <location filename="../../widgets/scalingcharts.cpp" line="116"/>
        <source>seconds</source>
        <translation>秒</translation>
    </message>
</context>
<context>
    <name>meridian::ScalingWindow</name>
    <message>
        <location filename="../../widgets/scalingwindow.cpp" line="76"/>
        <source>Meridian — Elastic scaling</source>
        <translation>Meridian — 弹性扩容</translation>
    </message>
    <message>
        <location filename="../../widgets/scalingwindow.cpp" line="87"/>
        <source>Scaling</source>
        <translation>扩容</translation>
    </message>
    <message>
        <location filename="../../widgets/scalingwindow.cpp" line="89"/>
        <source>Approval: </source>
        <translation>审批：</translation>
    </message>
    <message>
        <location filename="../../widgets/scalingwindow.cpp" line="91"/>
        <source>Manual — plan only when asked</source>
        <translation>手动 — 仅在请求时生成计划</translation>
    </message>
    <message>
        <location filename="../../widgets/scalingwindow.cpp" line="92"/>
        <source>Assisted — plans wait for one click</source>
        <translation>辅助 — 计划等待一键批准</translation>
    </message>
    <message>
        <location filename="../../widgets/scalingwindow.cpp" line="94"/>
        <source>Automatic — within each service&apos;s caps</source>
        <translation>自动 — 在各服务的上限内</translation>
    </message>
    <message>
        <location filename="../../widgets/scalingwindow.cpp" line="105"/>
        <source>Edit services…</source>
        <translation>编辑服务…</translation>
    </message>
    <message>
        <location filename="../../widgets/scalingwindow.cpp" line="108"/>
        <source>Simulated demand (req/s): </source>
        <translation>模拟需求（请求/秒）：</translation>
    </message>
    <message>
        <location filename="../../widgets/scalingwindow.cpp" line="112"/>
        <source>Puts load on the selected service in the embedded simulator</source>
        <translation>在内置模拟器中为所选服务施加负载</translation>
    </message>
    <message>
        <location filename="../../widgets/scalingwindow.cpp" line="114"/>
        <source>Apply</source>
        <translation>应用</translation>
    </message>
    <message>
        <location filename="../../widgets/scalingwindow.cpp" line="129"/>
        <location filename="../../widgets/scalingwindow.cpp" line="178"/>
        <source>Service</source>
        <translation>服务</translation>
    </message>
    <message>
        <location filename="../../widgets/scalingwindow.cpp" line="129"/>
        <source>Serving local</source>
        <translation>本地服务中</translation>
    </message>
    <message>
        <location filename="../../widgets/scalingwindow.cpp" line="129"/>
        <source>Serving rented</source>
        <translation>租用服务中</translation>
    </message>
    <message>
        <location filename="../../widgets/scalingwindow.cpp" line="129"/>
        <source>Starting</source>
        <translation>启动中</translation>
    </message>
    <message>
        <location filename="../../widgets/scalingwindow.cpp" line="130"/>
        <source>Desired</source>
        <translation>期望</translation>
    </message>
    <message>
        <location filename="../../widgets/scalingwindow.cpp" line="130"/>
        <source>Arrivals req/s</source>
        <translation>到达 请求/秒</translation>
    </message>
    <message>
        <location filename="../../widgets/scalingwindow.cpp" line="130"/>
        <source>Waiting</source>
        <translation>排队</translation>
    </message>
    <message>
        <location filename="../../widgets/scalingwindow.cpp" line="130"/>
        <source>TTFT p95 s</source>
        <translation>首字延迟 p95 秒</translation>
    </message>
    <message>
        <location filename="../../widgets/scalingwindow.cpp" line="131"/>
        <source>Rented cards</source>
        <translation>租用卡数</translation>
    </message>
    <message>
        <location filename="../../widgets/scalingwindow.cpp" line="131"/>
        <source>Rented CNY/h</source>
        <translation>租用 元/时</translation>
    </message>
    <message>
        <location filename="../../widgets/scalingwindow.cpp" line="131"/>
        <source>Decision</source>
        <translation>决策</translation>
    </message>
    <message>
        <location filename="../../widgets/scalingwindow.cpp" line="140"/>
        <source>Plan</source>
        <translation>计划</translation>
    </message>
    <message>
        <location filename="../../widgets/scalingwindow.cpp" line="145"/>
        <location filename="../../widgets/scalingwindow.cpp" line="162"/>
        <source>Approve plan</source>
        <translation>批准计划</translation>
    </message>
    <message>
        <location filename="../../widgets/scalingwindow.cpp" line="146"/>
        <source>Reject</source>
        <translation>拒绝</translation>
    </message>
    <message>
        <location filename="../../widgets/scalingwindow.cpp" line="147"/>
        <source>Plan now</source>
        <translation>立即生成计划</translation>
    </message>
    <message>
        <location filename="../../widgets/scalingwindow.cpp" line="150"/>
        <source>Give back at the paid hour&apos;s end</source>
        <translation>在已付费小时结束时归还</translation>
    </message>
    <message>
        <location filename="../../widgets/scalingwindow.cpp" line="169"/>
        <source>Reject plan</source>
        <translation>拒绝计划</translation>
    </message>
    <message>
        <location filename="../../widgets/scalingwindow.cpp" line="178"/>
        <source>Step</source>
        <translation>步骤</translation>
    </message>
    <message>
        <location filename="../../widgets/scalingwindow.cpp" line="178"/>
        <source>Created</source>
        <translation>创建时间</translation>
    </message>
    <message>
        <location filename="../../widgets/scalingwindow.cpp" line="178"/>
        <source>State</source>
        <translation>状态</translation>
    </message>
    <message>
        <location filename="../../widgets/scalingwindow.cpp" line="178"/>
        <source>Offer</source>
        <translation>报价</translation>
    </message>
    <message>
        <location filename="../../widgets/scalingwindow.cpp" line="179"/>
        <source>Lease</source>
        <translation>租约</translation>
    </message>
    <message>
        <location filename="../../widgets/scalingwindow.cpp" line="179"/>
        <source>Node</source>
        <translation>节点</translation>
    </message>
    <message>
        <location filename="../../widgets/scalingwindow.cpp" line="179"/>
        <source>CNY/h</source>
        <translation>元/时</translation>
    </message>
    <message>
        <location filename="../../widgets/scalingwindow.cpp" line="179"/>
        <source>By</source>
        <translation>发起者</translation>
    </message>
    <message>
        <location filename="../../widgets/scalingwindow.cpp" line="179"/>
        <location filename="../../widgets/scalingwindow.cpp" line="181"/>
        <source>Why</source>
        <translation>原因</translation>
    </message>
    <message>
        <location filename="../../widgets/scalingwindow.cpp" line="181"/>
        <source>When</source>
        <translation>时间</translation>
    </message>
    <message>
        <location filename="../../widgets/scalingwindow.cpp" line="181"/>
        <source>Who</source>
        <translation>操作者</translation>
    </message>
    <message>
        <location filename="../../widgets/scalingwindow.cpp" line="181"/>
        <source>What</source>
        <translation>操作</translation>
    </message>
    <message>
        <location filename="../../widgets/scalingwindow.cpp" line="182"/>
        <source>Journal</source>
        <translation>日志</translation>
    </message>
    <message>
        <location filename="../../widgets/scalingwindow.cpp" line="183"/>
        <source>Audit log</source>
        <translation>审计日志</translation>
    </message>
    <message>
        <location filename="../../widgets/scalingwindow.cpp" line="212"/>
        <source>Scaling is off: %1</source>
        <translation>扩容已停用：%1</translation>
    </message>
    <message>
        <location filename="../../widgets/scalingwindow.cpp" line="262"/>
        <source>No inference services are declared.</source>
        <translation>未声明任何推理服务。</translation>
    </message>
    <message numerus="yes">
        <location filename="../../widgets/scalingwindow.cpp" line="274"/>
        <source>%n replica(s) on free local cards</source>
        <translation>
            <numerusform>在空闲本地卡上启动 %n 个副本</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../../widgets/scalingwindow.cpp" line="276"/>
        <source>%n rented node(s) for %1 CNY/h</source>
        <translation>
            <numerusform>租用 %n 个节点，每小时 %1 元</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../../widgets/scalingwindow.cpp" line="278"/>
        <source>&lt;b&gt;Waiting for approval:&lt;/b&gt; %1. </source>
        <translation>&lt;b&gt;等待批准：&lt;/b&gt;%1。</translation>
    </message>
    <message>
        <location filename="../../widgets/scalingwindow.cpp" line="278"/>
        <source> and </source>
        <translation>，</translation>
    </message>
    <message>
        <location filename="../../widgets/scalingwindow.cpp" line="280"/>
        <source>No plan waiting. </source>
        <translation>没有待批准的计划。</translation>
    </message>
    <message>
        <location filename="../../widgets/scalingwindow.cpp" line="282"/>
        <source>Policy: %1 — %2</source>
        <translation>策略：%1 — %2</translation>
    </message>
    <message>
        <location filename="../../widgets/scalingwindow.cpp" line="284"/>
        <source>steady</source>
        <translation>平稳</translation>
    </message>
    <message>
        <location filename="../../widgets/scalingwindow.cpp" line="286"/>
        <source>Held back: %1</source>
        <translation>受限：%1</translation>
    </message>
    <message numerus="yes">
        <location filename="../../widgets/scalingwindow.cpp" line="295"/>
        <source>%n scaling step(s) no longer needed: rented nodes go back in the two minutes before their paid hour ends, local replicas stop.</source>
        <translation>
            <numerusform>%n 个扩容步骤已不再需要：租用节点在已付费小时结束前两分钟内归还，本地副本停止。</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../../widgets/scalingwindow.cpp" line="298"/>
        <source>%n scaling step(s) no longer needed; rented nodes are paid to the end of their hour either way.</source>
        <translation>
            <numerusform>%n 个扩容步骤已不再需要；租用节点无论如何都已付费至本小时结束。</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../../widgets/scalingwindow.cpp" line="302"/>
        <source>No surplus rented capacity.</source>
        <translation>没有多余的租用算力。</translation>
    </message>
</context>
<context>
    <name>meridian::ServicesDialog</name>
    <message>
        <location filename="../../widgets/servicesdialog.cpp" line="22"/>
        <source>Inference services</source>
        <translation>推理服务</translation>
    </message>
    <message>
        <location filename="../../widgets/servicesdialog.cpp" line="25"/>
        <source>Saved to %1. The autoscaler restarts with it.</source>
        <translation>保存到 %1。自动扩容将按其重新启动。</translation>
    </message>
    <message>
        <location filename="../../widgets/servicesdialog.cpp" line="62"/>
        <source>Cannot write a scratch copy: %1</source>
        <translation>无法写入临时副本：%1</translation>
    </message>
    <message>
        <location filename="../../widgets/servicesdialog.cpp" line="77"/>
        <source>%1: %2</source>
        <translation>%1：%2</translation>
    </message>
</context>
</TS>
