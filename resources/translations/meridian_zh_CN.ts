<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name>AlertGuidance</name>
    <message>
        <location filename="../../models/alerts/alertguidance.cpp" line="+41"/>
        <source>Graphics engine exception: usually the job&apos;s own code</source>
        <translation>图形引擎异常：通常是作业自身代码的问题</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Tell the tenant; if it appears on several cards without a job change, run dcgmi diag -r 3 on the node</source>
        <translation>通知租户；若作业未变却在多张卡上出现，在该节点上运行 dcgmi diag -r 3</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>GPU memory page fault: usually an illegal address in the job</source>
        <translation>GPU 显存页错误：通常是作业访问了非法地址</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Tell the tenant; if it recurs across jobs, drain the node and run dcgmi diag</source>
        <translation>通知租户；若在不同作业中反复出现，排空节点并运行 dcgmi diag</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>The GPU stopped a job that faulted; the card is fine</source>
        <translation>GPU 终止了出错的作业；卡本身正常</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>No action unless it recurs with other Xids</source>
        <translation>无需处理，除非与其他 Xid 一起反复出现</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>A job was cleaned up after it was killed</source>
        <translation>作业被终止后已清理</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>No action: it follows a kill or another Xid</source>
        <translation>无需处理：它跟随作业终止或其他 Xid 出现</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Double-bit ECC error: memory contents were lost</source>
        <translation>双比特 ECC 错误：显存内容已丢失</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Drain the node, reset the GPU (row remapping applies on reset); replace the card if it recurs</source>
        <translation>排空节点并重置 GPU（重置时生效行重映射）；若反复出现则更换该卡</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Internal micro-controller breakpoint</source>
        <translation>内部微控制器断点</translation>
    </message>
    <message>
        <location line="+1"/>
        <location line="+3"/>
        <source>Drain the node and reset the GPU; open a case with NVIDIA if it recurs</source>
        <translation>排空节点并重置 GPU；若反复出现，向 NVIDIA 提交工单</translation>
    </message>
    <message>
        <location line="-1"/>
        <source>Internal micro-controller halt</source>
        <translation>内部微控制器停机</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>ECC page retirement or row remapping recorded</source>
        <translation>已记录 ECC 页退役或行重映射</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Reset the GPU at the next drain so the remap takes effect; watch for Xid 64</source>
        <translation>下次排空时重置 GPU 使重映射生效；留意 Xid 64</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>ECC page retirement or row remapping failed</source>
        <translation>ECC 页退役或行重映射失败</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Drain the node and replace the card</source>
        <translation>排空节点并更换该卡</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>NVLink error</source>
        <translation>NVLink 错误</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Drain the node, reset the GPUs; reseat or replace the NVLink bridge or baseboard if it recurs</source>
        <translation>排空节点并重置 GPU；若反复出现，重新插拔或更换 NVLink 桥或基板</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>GPU fell off the bus</source>
        <translation>GPU 从总线上掉线</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Drain the node, reset; replace the card if it recurs</source>
        <translation>排空节点并重置；若反复出现则更换该卡</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>High rate of single-bit ECC errors</source>
        <translation>单比特 ECC 错误频率过高</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Schedule the card for replacement; watch for Xid 48</source>
        <translation>安排更换该卡；留意 Xid 48</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Contained ECC error: one job was stopped, the card is usable</source>
        <translation>已隔离的 ECC 错误：一个作业被终止，卡仍可用</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Tell the tenant; reset the GPU when the node is next drained</source>
        <translation>通知租户；下次排空节点时重置 GPU</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Uncontained ECC error: every job on the card is affected</source>
        <translation>未隔离的 ECC 错误：该卡上的所有作业均受影响</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Drain the node and reset the GPU now</source>
        <translation>立即排空节点并重置 GPU</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>GSP firmware did not answer in time</source>
        <translation>GSP 固件未及时响应</translation>
    </message>
    <message>
        <location line="+1"/>
        <location line="+3"/>
        <source>Drain the node and reset the GPU; update the driver if it recurs</source>
        <translation>排空节点并重置 GPU；若反复出现则升级驱动</translation>
    </message>
    <message>
        <location line="-1"/>
        <source>GSP firmware error</source>
        <translation>GSP 固件错误</translation>
    </message>
    <message>
        <location line="+21"/>
        <source>Data center dark</source>
        <translation>数据中心失联</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Agent unreachable</source>
        <translation>代理不可达</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Agent silent</source>
        <translation>代理无数据</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Xid</source>
        <translation>Xid</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>ECC double-bit</source>
        <translation>ECC 双比特错误</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Thermal throttling</source>
        <translation>过热降频</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Link down</source>
        <translation>链路中断</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Link flapping</source>
        <translation>链路抖动</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>PFC storm</source>
        <translation>PFC 风暴</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Paid but idle</source>
        <translation>付费但空闲</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Service over objective</source>
        <translation>服务超出目标</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Plan awaiting approval</source>
        <translation>计划待审批</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Scaling controller silent</source>
        <translation>扩缩容控制器无响应</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Alert</source>
        <translation>告警</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>%1 (Xid %2)</source>
        <translation>%1（Xid %2）</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Xid %1</source>
        <translation>Xid %1</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>%1 card %2</source>
        <translation>%1 卡 %2</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>Most of the data center&apos;s agents stopped reporting at once: its uplink, power or Meridian&apos;s route to it, not the nodes one by one</source>
        <translation>该数据中心的大部分代理同时停止上报：问题在于其上联、供电或 Meridian 到它的路由，而非逐个节点</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Meridian cannot reach the node&apos;s agent</source>
        <translation>Meridian 无法连接该节点的代理</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>The agent is connected but has sent no telemetry for three intervals</source>
        <translation>代理已连接，但已连续三个周期未发送遥测数据</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>The NVIDIA driver reported an error on the card</source>
        <translation>NVIDIA 驱动报告该卡出错</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Uncorrectable memory error: data on the card was lost</source>
        <translation>不可纠正的显存错误：卡上的数据已丢失</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>The card slows itself down because it is too hot</source>
        <translation>卡因温度过高而自行降频</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>A RoCE link of the node is down</source>
        <translation>该节点的一条 RoCE 链路中断</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>A RoCE link keeps going down and up: collectives on it stall and retry</source>
        <translation>一条 RoCE 链路反复断开又恢复：其上的集合通信会停顿并重试</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Pause frames flood the fabric: traffic behind the port is stuck</source>
        <translation>暂停帧充斥网络：该端口后方的流量被阻塞</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>A rented card has been below 5% utilisation for an hour</source>
        <translation>一张已出租的卡利用率低于 5% 已达一小时</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Customers of the inference service wait longer than its objective for the first token</source>
        <translation>推理服务的客户等待首个 token 的时间超过目标</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>The autoscaler proposes more capacity and waits for someone to approve it</source>
        <translation>自动扩缩容提出增加容量，等待审批</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>meridian-scaled does not answer or has stopped its passes: no service is scaled while it is</source>
        <translation>meridian-scaled 无响应或已停止运行：在此期间没有任何服务会被扩缩容</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>Check the data center&apos;s uplink, VPN and power first; agent alerts there are held back until it recovers</source>
        <translation>先检查该数据中心的上联、VPN 和供电；恢复之前其代理告警暂不单独上报</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Check the node is up and &apos;systemctl status meridian-agent&apos;; then the firewall, certificate and token</source>
        <translation>确认节点在线并执行 &apos;systemctl status meridian-agent&apos;；再检查防火墙、证书和令牌</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Read the agent&apos;s journal: a hung nvidia-smi or npu-smi stops its collector; restart the agent</source>
        <translation>查看代理日志：nvidia-smi 或 npu-smi 卡住会使采集停止；重启代理</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Look the code up in NVIDIA&apos;s Xid catalogue; drain the node if it repeats</source>
        <translation>在 NVIDIA 的 Xid 目录中查找该代码；若重复出现则排空节点</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Drain the node and reset the card; replace it if it recurs</source>
        <translation>排空节点并重置该卡；若反复出现则更换</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Check the node&apos;s fans and the rack&apos;s inlet temperature and airflow</source>
        <translation>检查节点风扇以及机柜进风温度和气流</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>On the node, &apos;ethtool&apos; and &apos;rdma link&apos; on the port; then the cable, the transceiver and the switch port (the console&apos;s Fabric window names it)</source>
        <translation>在节点上对该端口执行 &apos;ethtool&apos; 和 &apos;rdma link&apos;；然后检查线缆、光模块和交换机端口（控制台的网络拓扑窗口会标出该端口）</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Replace the cable or transceiver; check the switch port&apos;s error counters</source>
        <translation>更换线缆或光模块；检查交换机端口的错误计数</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Find the NIC sending the pauses (a stuck receiver) and isolate its port; check the switch&apos;s PFC watchdog</source>
        <translation>找出发送暂停帧的网卡（接收端卡死）并隔离其端口；检查交换机的 PFC 看门狗</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Tell the tenant&apos;s account manager; release the card if it stays idle</source>
        <translation>通知租户的客户经理；若持续空闲则释放该卡</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>&apos;meridian-scaled status&apos; says what it waits for; approve its plan in the console&apos;s Scaling window, or add capacity</source>
        <translation>&apos;meridian-scaled status&apos; 会说明它在等待什么；在控制台的扩缩容窗口中审批其计划，或增加容量</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Approve or reject the plan in the console&apos;s Scaling window (&apos;meridian-scaled status&apos; shows it)</source>
        <translation>在控制台的扩缩容窗口中审批或拒绝该计划（&apos;meridian-scaled status&apos; 会显示它）</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>&apos;systemctl status meridian-scaled&apos; and its journal; restarted, it resumes every step from its own journal</source>
        <translation>执行 &apos;systemctl status meridian-scaled&apos; 并查看其日志；重启后它会根据自己的日志恢复每个步骤</translation>
    </message>
    <message>
        <location line="+45"/>
        <source>Over after %1</source>
        <translation>已恢复，持续 %1</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Over: it ended while no judge ran, within %1 of its start</source>
        <translation>已恢复：在无人判定期间结束，距开始不超过 %1</translation>
    </message>
</context>
<context>
    <name>AlertNotifier</name>
    <message>
        <location filename="../../models/alerts/alertnotifier.cpp" line="+86"/>
        <source>test from the Meridian console</source>
        <translation>来自 Meridian 控制台的测试</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>A test: if you read this, the route works.</source>
        <translation>测试：看到此消息说明该路由工作正常。</translation>
    </message>
</context>
<context>
    <name>AlertsModel</name>
    <message>
        <location filename="../../models/alerts/alertguidance.cpp" line="-19"/>
        <source>%1 s</source>
        <translation>%1 秒</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>%1 min</source>
        <translation>%1 分钟</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>%1 h %2 min</source>
        <translation>%1 小时 %2 分钟</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>%1 h</source>
        <translation>%1 小时</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>%1 d %2 h</source>
        <translation>%1 天 %2 小时</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>%1 d</source>
        <translation>%1 天</translation>
    </message>
</context>
<context>
    <name>CardConditions</name>
    <message>
        <location filename="../../models/fleet/cardconditions.cpp" line="+36"/>
        <source>silenced until %1 by %2</source>
        <translation>已由 %2 静默至 %1</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>acknowledged by %1</source>
        <translation>已由 %1 确认</translation>
    </message>
    <message>
        <location line="+58"/>
        <source>Link down or flapping</source>
        <translation>链路断开或抖动</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>A RoCE link of the node is down, or dropped twice or more in the last ten minutes</source>
        <translation>该节点有一条 RoCE 链路断开，或在最近十分钟内中断两次以上</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>Throttled by the hardware</source>
        <translation>硬件降频</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The card runs slower than it may: a power brake or a hardware slowdown, not its temperature</source>
        <translation>该卡未以应有速度运行：原因是电源制动或硬件降速，而非温度</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Check the node&apos;s power supplies and the card&apos;s throttle reasons (nvidia-smi -q -d PERFORMANCE)</source>
        <translation>检查节点电源和该卡的降频原因（nvidia-smi -q -d PERFORMANCE）</translation>
    </message>
    <message>
        <location line="+14"/>
        <source>%1: no switch names it (LLDP), so its port is not known</source>
        <translation>%1：没有交换机（LLDP）报告它，端口未知</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>%1 (rail %2)</source>
        <translation>%1（轨道 %2）</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>%1 → switch %2 port %3</source>
        <translation>%1 → 交换机 %2 端口 %3</translation>
    </message>
</context>
<context>
    <name>DataCenter</name>
    <message>
        <location filename="../../models/placenames.cpp" line="+11"/>
        <source>Xiamen</source>
        <translation>厦门</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Wuhu</source>
        <translation>芜湖</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Zhongwei</source>
        <translation>中卫</translation>
    </message>
</context>
<context>
    <name>FabricFindings</name>
    <message>
        <location filename="../../models/fabric/findingwords.cpp" line="+37"/>
        <source>the link is up but no LLDP neighbour names its switch</source>
        <translation>链路已连通，但没有 LLDP 邻居报告其交换机</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>%1 is not in the fabric file (%2 sees it)</source>
        <translation>%1 不在网络拓扑文件中（%2 可见它）</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>down (to %1 %2): its rail&apos;s traffic takes the other NICs</source>
        <translation>已断开（至 %1 %2）：该轨道的流量改走其他网卡</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>went down %1 times in ten minutes (to %2 %3): replace the cable or transceiver</source>
        <translation>十分钟内断开 %1 次（至 %2 %3）：请更换线缆或光模块</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>%1 pause frames/s with %2 %3: a stuck receiver is holding the fabric; isolate its port</source>
        <translation>与 %2 %3 之间每秒 %1 个暂停帧：卡住的接收端正在阻塞网络，请隔离其端口</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>%1 %2 not reported for %3 min; drawn as last seen</source>
        <translation>%1 %2 已 %3 分钟未上报；按最后所见绘制</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>%1 %2 is claimed by %3 and by %4</source>
        <translation>%1 %2 同时被 %3 和 %4 占用</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>PFC on priorities %1 on the host, %2 on %3 %4: pauses will not be honoured and lossless traffic drops</source>
        <translation>主机上 PFC 优先级为 %1，%3 %4 上为 %2：暂停帧不会生效，无损流量将丢包</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>rail %1 NIC is cabled to %2 %3, a rail %4 leaf: its traffic crosses the spines</source>
        <translation>轨道 %1 的网卡接到了 %2 %3（轨道 %4 的叶交换机）：其流量需绕经脊交换机</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>wrong leaf</source>
        <translation>接错叶交换机</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>PFC mismatch</source>
        <translation>PFC 不一致</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>stale neighbour</source>
        <translation>邻居信息过期</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>no neighbour</source>
        <translation>无邻居</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>port claimed twice</source>
        <translation>端口重复占用</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>unknown switch</source>
        <translation>未知交换机</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>link down</source>
        <translation>链路断开</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>link flapping</source>
        <translation>链路抖动</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>PFC storm</source>
        <translation>PFC 风暴</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>finding</source>
        <translation>发现</translation>
    </message>
    <message>
        <location line="+15"/>
        <source>[%1] %2 — %3: %4</source>
        <translation>[%1] %2 — %3：%4</translation>
    </message>
</context>
<context>
    <name>FleetHeatmap</name>
    <message>
        <location filename="../../widgets/fleet/fleetheatmap.cpp" line="+23"/>
        <source>never</source>
        <translation>从未</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>%1 s ago</source>
        <translation>%1 秒前</translation>
    </message>
</context>
<context>
    <name>FleetMetric</name>
    <message>
        <location filename="../../models/metricscale.cpp" line="+13"/>
        <source>Utilisation</source>
        <translation>利用率</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Memory</source>
        <translation>显存</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Temperature</source>
        <translation>温度</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Power</source>
        <translation>功耗</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Errors</source>
        <translation>错误</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>n/a</source>
        <translation>无读数</translation>
    </message>
    <message>
        <location line="-13"/>
        <source>Health</source>
        <translation>健康</translation>
    </message>
</context>
<context>
    <name>Health</name>
    <message>
        <location filename="../../models/cardhealth.cpp" line="+60"/>
        <source>Xid</source>
        <translation>Xid</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>ECC error</source>
        <translation>ECC 错误</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>unreachable</source>
        <translation>不可达</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>heat-throttled</source>
        <translation>过热降频</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>throttled</source>
        <translation>降频</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>stale</source>
        <translation>已过期</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>no reading</source>
        <translation>无读数</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>healthy</source>
        <translation>健康</translation>
    </message>
</context>
<context>
    <name>PlanWindow</name>
    <message>
        <location filename="../../widgets/plan/planchart.cpp" line="+79"/>
        <source>Requests inside the objective (%)</source>
        <translation>满足目标的请求（%）</translation>
    </message>
    <message>
        <location line="+2"/>
        <location filename="../../models/plan/planwording.cpp" line="+165"/>
        <source>CNY a month</source>
        <translation>每月人民币</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>The front</source>
        <translation>前沿</translation>
    </message>
    <message>
        <location filename="../../widgets/plan/planpdf.cpp" line="+22"/>
        <source>%1: no plan to write</source>
        <translation>%1：没有可写入的规划</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Plan, held to the week after</source>
        <translation>规划：以下一周检验</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Plan: own, contract, rent</source>
        <translation>规划：自有、签约、租用</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Meridian capacity plan</source>
        <translation>Meridian 容量规划</translation>
    </message>
    <message>
        <location filename="../../models/plan/planwording.cpp" line="-135"/>
        <source>Plan, judged on the week after</source>
        <translation>规划（以下一周检验）</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Cheapest in hindsight</source>
        <translation>事后看最便宜的组合</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Rule: all hourly</source>
        <translation>规则：全部按小时租用</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Rule: own the peak</source>
        <translation>规则：按峰值自购</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Rule: contract the median</source>
        <translation>规则：按中位数签约</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Planned from one week: whether the next repeats its shape is not yet known.</source>
        <translation>仅依据一周数据规划：下一周是否重复同样的形态尚不可知。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Demand grew %1 a week</source>
        <translation>需求每周增长 %1</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Demand fell %1 a week</source>
        <translation>需求每周下降 %1</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>; the plan carries it on.</source>
        <translation>；规划已按此趋势延续。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source> over two weeks; the plan does not carry it on.</source>
        <translation>（两周内）；规划未按此趋势延续。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>The forecast missed the last week it could check by %1 an hour.</source>
        <translation>对可检验的最近一周，预测每小时偏差 %1。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>The week after ran %1 an hour from the forecast: plan again on it.</source>
        <translation>下一周每小时偏离预测 %1：请据此重新规划。</translation>
    </message>
    <message>
        <location line="+19"/>
        <source>Recommended: %1, own %2 cards, contract %3, rent above them. %4 CNY a month; %5 of requests inside the objective.</source>
        <translation>推荐：%1，自有 %2 张卡，签约 %3 张，其余按需租用。每月 %4 元；%5 的请求满足目标。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>No mix keeps the objective; the closest: %1, own %2 cards, contract %3. %4 CNY a month; %5 inside.</source>
        <translation>没有组合能满足目标；最接近的是：%1，自有 %2 张卡，签约 %3 张。每月 %4 元；%5 满足目标。</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>Owned cards %1 busy; buying pays back in %2 months against contracting them.</source>
        <translation>自有卡忙碌率 %1；与签约相比，购买 %2 个月回本。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Buying never pays back against contracting.</source>
        <translation>与签约相比，购买永远无法回本。</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Recommended</source>
        <translation>推荐</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>No plan: %1</source>
        <translation>无法规划：%1</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Planned from the first week and judged on the next: %1 CNY a month against %2 for the mix cheapest in hindsight (%3 more); %4 of requests inside the objective.</source>
        <translation>依据第一周规划、以下一周检验：每月 %1 元，事后最便宜的组合为 %2 元（多 %3）；%4 的请求满足目标。</translation>
    </message>
    <message>
        <location line="+25"/>
        <source>%1 mixes weighed on the week forecast from %2 week(s) of demand.</source>
        <translation>依据 %2 周需求预测的一周，共评估 %1 个组合。</translation>
    </message>
    <message numerus="yes">
        <location line="+5"/>
        <source>%n hour(s) of demand were not recorded; each is taken as the same hour of the other weeks.</source>
        <translation>
            <numerusform>有 %n 小时的需求未被记录；每小时按其他周同一小时取值。</numerusform>
        </translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Mix</source>
        <translation>组合</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Card model</source>
        <translation>卡型号</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Owned cards</source>
        <translation>自有卡数</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Contracted cards</source>
        <translation>签约卡数</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Inside the objective</source>
        <translation>满足目标的比例</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Owned cards busy</source>
        <translation>自有卡忙碌率</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Rented card-hours a month</source>
        <translation>每月租用卡时</translation>
    </message>
    <message>
        <location line="+19"/>
        <source>Cheapest on %1</source>
        <translation>%1 上最便宜的组合</translation>
    </message>
</context>
<context>
    <name>QObject</name>
    <message>
        <location filename="../../app/console/consolesession.cpp" line="+116"/>
        <source>Meridian — simulated fleet (plaintext on loopback)</source>
        <translation>Meridian — 模拟集群（本机回环，未加密）</translation>
    </message>
    <message>
        <location line="+187"/>
        <source>Cost history: %1</source>
        <translation>成本历史：%1</translation>
    </message>
    <message>
        <location line="-12"/>
        <source>Cost history is off: %1</source>
        <translation>成本历史已停用：%1</translation>
    </message>
    <message>
        <location line="+68"/>
        <source>Alert triage: %1</source>
        <translation>告警处置：%1</translation>
    </message>
    <message>
        <location line="+102"/>
        <source>Rented cards the autoscaler in this console holds: %1 (%2 CNY an hour). Closing stops it: nobody gives them back at the end of their paid hour, and no plan goes on, until a console with the autoscaler runs again.</source>
        <translation>此控制台的自动扩缩容持有的租用卡：%1 张（每小时 %2 元）。关闭会使其停止：在再次运行带自动扩缩容的控制台之前，无人会在计费小时结束时归还这些卡，也不会继续执行任何计划。</translation>
    </message>
    <message>
        <location line="+39"/>
        <source>Runs headless: meridian-scaled at %1</source>
        <translation>独立运行：meridian-scaled 位于 %1</translation>
    </message>
    <message>
        <location line="+33"/>
        <source>The history&apos;s cost views keep their old prices: %1</source>
        <translation>历史记录中的成本视图仍沿用旧价格：%1</translation>
    </message>
    <message>
        <location line="-183"/>
        <source>Alert routing is off: %1</source>
        <translation>告警路由已关闭：%1</translation>
    </message>
    <message numerus="yes">
        <location line="-294"/>
        <source>%n step(s) waiting, ¥%1/h</source>
        <translation>
            <numerusform>%n 个步骤待审批，每小时 ¥%1</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../../app/console/main.cpp" line="+43"/>
        <source>Meridian cannot start</source>
        <translation>Meridian 无法启动</translation>
    </message>
    <message>
        <location filename="../../widgets/cost/reportcharts.cpp" line="+110"/>
        <source>Card-hours and value per day</source>
        <translation>每日卡时与价值</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Card-hours and value per week</source>
        <translation>每周卡时与价值</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Busy card-hours</source>
        <translation>忙碌卡时</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Idle card-hours</source>
        <translation>空闲卡时</translation>
    </message>
    <message>
        <location line="-23"/>
        <source>Value (CNY, right)</source>
        <translation>价值（元，右轴）</translation>
    </message>
    <message>
        <location line="+86"/>
        <source>Value by %1, the %2 largest of %3 (CNY)</source>
        <translation>按%1的价值，%3 项中最大的 %2 项（元）</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Value by %1 (CNY)</source>
        <translation>按%1的价值（元）</translation>
    </message>
    <message>
        <location line="-35"/>
        <source>card-hours</source>
        <translation>卡时</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>CNY</source>
        <translation>元</translation>
    </message>
    <message>
        <location line="+31"/>
        <source>Busy</source>
        <translation>忙碌</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Idle</source>
        <translation>空闲</translation>
    </message>
    <message>
        <location filename="../../widgets/pdfpages.cpp" line="+176"/>
        <source>%1: cannot lay out the PDF</source>
        <translation>%1：无法排版 PDF</translation>
    </message>
    <message>
        <location line="+13"/>
        <location line="+5"/>
        <source>%1: cannot write the PDF</source>
        <translation>%1：无法写入 PDF</translation>
    </message>
    <message>
        <location line="-73"/>
        <source>Page %1 of %2</source>
        <translation>第 %1 页，共 %2 页</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Page %1</source>
        <translation>第 %1 页</translation>
    </message>
    <message>
        <location filename="../../widgets/cost/reportpdf.cpp" line="+25"/>
        <source>%1, by %2</source>
        <translation>%1，按%2</translation>
    </message>
    <message>
        <location line="+31"/>
        <source>No cloud capacity was rented in this period.</source>
        <translation>本期间未租用云端算力。</translation>
    </message>
    <message numerus="yes">
        <location line="+2"/>
        <source>Cloud spend: %1 CNY over %n lease(s).</source>
        <translation>
            <numerusform>云端支出：%n 个租约共 %1 元。</numerusform>
        </translation>
    </message>
    <message>
        <location line="+38"/>
        <source>Cards</source>
        <translation>卡数</translation>
    </message>
    <message>
        <location line="-3"/>
        <source>Total</source>
        <translation>合计</translation>
    </message>
    <message>
        <location line="-12"/>
        <source>Cloud leases</source>
        <translation>云端租约</translation>
    </message>
    <message>
        <location line="-50"/>
        <source>%1.</source>
        <comment>a sentence&apos;s full stop</comment>
        <translation>%1。</translation>
    </message>
    <message>
        <location line="+64"/>
        <source>Lease</source>
        <translation>租约</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Region</source>
        <translation>区域</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Service</source>
        <translation>服务</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Card model</source>
        <translation>卡型号</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>CNY/card-h</source>
        <translation>元/卡时</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Billed h</source>
        <translation>计费小时</translation>
    </message>
    <message>
        <location filename="../../models/cost/pricebookfiles.cpp" line="+12"/>
        <source>no price book: costs are not known</source>
        <translation>没有价格表：成本未知</translation>
    </message>
    <message>
        <location filename="../../widgets/fabric/fabricwindow.cpp" line="+48"/>
        <source>unknown</source>
        <translation>未知</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>DOWN</source>
        <translation>中断</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>FLAPPING</source>
        <translation>抖动</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>up</source>
        <translation>正常</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>&lt;b&gt;%1 → %2&lt;/b&gt;&lt;br/&gt;uplink, %3 Gb/s; load %4 (estimated from the hosts below)</source>
        <translation>&lt;b&gt;%1 → %2&lt;/b&gt;&lt;br/&gt;上联链路，%3 Gb/s；负载 %4（由下挂主机估算）</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>&lt;b&gt;%1 %2 → %3 %4&lt;/b&gt;&lt;br/&gt;rail %5, %6 Gb/s, %7; load %8&lt;br/&gt;PFC pauses %9/s · ECN + CNP %10/s%11</source>
        <translation>&lt;b&gt;%1 %2 → %3 %4&lt;/b&gt;&lt;br/&gt;轨道 %5，%6 Gb/s，%7；负载 %8&lt;br/&gt;PFC 暂停 %9/秒 · ECN + CNP %10/秒%11</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>&lt;br/&gt;neighbour not reported lately: as last seen</source>
        <translation>&lt;br/&gt;邻居近期未上报：按最后一次所见显示</translation>
    </message>
    <message>
        <location filename="../../widgets/cost/reportpdf.cpp" line="-74"/>
        <source>Utilisation and value</source>
        <translation>利用率与价值</translation>
    </message>
    <message>
        <location line="+16"/>
        <source>Value of own cards at price-book rates: %1 CNY (%2), of which idle cards %3 CNY (%4).</source>
        <translation>按价目表计的自有卡价值：%1 元（%2），其中空闲卡 %3 元（%4）。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>%1 cards, %2 card-hours recorded (coverage %3): %4 busy, %5 idle; busy %6 of card-hours (%7), mean utilisation %8; energy %9 kWh. A card-hour is busy at or above 5% utilisation.</source>
        <translation>%1 张卡，已记录 %2 卡时（覆盖率 %3）：忙碌 %4、空闲 %5；忙碌占卡时 %6（%7），平均利用率 %8；能耗 %9 kWh。利用率不低于 5% 的卡时计为忙碌。</translation>
    </message>
    <message>
        <location line="+20"/>
        <source>%1 card-hours had no price in the price book and are not in the value.</source>
        <translation>%1 卡时在价目表中没有价格，未计入价值。</translation>
    </message>
    <message>
        <location line="+33"/>
        <source>Spend (CNY)</source>
        <translation>支出（元）</translation>
    </message>
    <message>
        <location line="+19"/>
        <source>Figures as of %1 UTC, by Meridian. Own cards are priced by the price book in force at each minute; rented cloud capacity at what the pool charged, per started billing increment.</source>
        <translation>数据截至 %1 UTC，由 Meridian 生成。自有加速卡按每分钟生效的价目表计价；租用的云端算力按资源池实际收取的费用计价，按已开始的计费增量计费。</translation>
    </message>
    <message>
        <location line="+30"/>
        <source>Meridian utilisation and value report</source>
        <translation>Meridian 利用率与价值报告</translation>
    </message>
    <message>
        <location filename="../../widgets/cost/reportcharts.cpp" line="-68"/>
        <source>No data</source>
        <translation>无数据</translation>
    </message>
    <message>
        <location filename="../../models/cost/faultresponsemodel.cpp" line="+18"/>
        <source>%1 min</source>
        <translation>%1 分钟</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>%1 h</source>
        <translation>%1 小时</translation>
    </message>
    <message numerus="yes">
        <location filename="../../models/fabric/fabricscene.cpp" line="+293"/>
        <source>pod %1 · %n leaves</source>
        <translation>
            <numerusform>分区 %1 · %n 台叶交换机</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+124"/>
        <source>%n host(s)</source>
        <translation>
            <numerusform>%n 台主机</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../../models/plan/planloader.cpp" line="+16"/>
        <source>%1&apos;s recorded demand</source>
        <translation>%1 记录的需求</translation>
    </message>
    <message>
        <location line="+33"/>
        <source>%1: no demand in it</source>
        <translation>%1：其中没有需求</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>%1: a backtest needs two whole weeks of demand</source>
        <translation>%1：回测需要两整周的需求数据</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>%1: a plan needs a whole week of demand</source>
        <translation>%1：规划需要一整周的需求数据</translation>
    </message>
</context>
<context>
    <name>ReportWording</name>
    <message>
        <location filename="../../models/cost/reportwording.cpp" line="+27"/>
        <source>%1 – %2 (the end excluded)</source>
        <translation>%1 – %2（不含结束时刻）</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>%1 UTC (1 day)</source>
        <translation>%1 UTC（1 天）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>%1 – %2 UTC (%3 days)</source>
        <translation>%1 – %2 UTC（%3 天）</translation>
    </message>
    <message>
        <location line="+23"/>
        <source>no data for the previous period</source>
        <translation>上一周期无数据</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>not compared: the history covers %1 of the previous period, %2 of this one</source>
        <translation>未作比较：历史记录覆盖上一周期的 %1，本周期的 %2</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>none in the previous period</source>
        <translation>上一周期为零</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>%1 %2 points on the previous period</source>
        <translation>较上一周期 %1 %2 个百分点</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>%1 %2% on the previous period</source>
        <translation>较上一周期 %1 %2%</translation>
    </message>
    <message>
        <location line="+21"/>
        <source>Coverage %1 of the card-hours %2 cards give in %3 h: the figures cover only what was recorded</source>
        <translation>覆盖率 %1（%2 张卡在 %3 小时内应有的卡时）：各项数字只反映已记录的部分</translation>
    </message>
    <message>
        <location line="+14"/>
        <source>; no data on %1</source>
        <translation>；%1 无数据</translation>
    </message>
</context>
<context>
    <name>meridian::AlertCenter</name>
    <message>
        <location filename="../../models/alerts/alertcenter.cpp" line="+108"/>
        <source>Agents&apos; silence is not judged: this process is behind (its loop %1 s late, nothing received for %2 s)</source>
        <translation>暂不判断节点是否静默：本进程自身滞后（循环迟了 %1 秒，%2 秒未收到数据）</translation>
    </message>
</context>
<context>
    <name>meridian::AlertNotifier</name>
    <message>
        <location filename="../../models/alerts/alertnotifier.cpp" line="+222"/>
        <source>%1
Next: %2</source>
        <translation>%1
下一步：%2</translation>
    </message>
    <message numerus="yes">
        <location line="+5"/>
        <source>%n more alert(s)</source>
        <translation>
            <numerusform>另有 %n 条告警</numerusform>
        </translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Open Meridian&apos;s alert list (Ctrl+L)</source>
        <translation>打开 Meridian 告警列表（Ctrl+L）</translation>
    </message>
</context>
<context>
    <name>meridian::AlertRoutingDialog</name>
    <message>
        <location filename="../../models/alerts/alertroutesmodel.cpp" line="+23"/>
        <source>critical and unanswered after %1 min, again every %2 min</source>
        <translation>严重且 %1 分钟无人响应，之后每 %2 分钟再次通知</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>critical only</source>
        <translation>仅严重</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>warning and critical</source>
        <translation>警告及严重</translation>
    </message>
    <message>
        <location line="+26"/>
        <source>, %1 waiting</source>
        <translation>，%1 条等待中</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>, %1 given up</source>
        <translation>，%1 条已放弃</translation>
    </message>
    <message>
        <location line="+55"/>
        <source>Route</source>
        <translation>路由</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Kind</source>
        <translation>类型</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Address</source>
        <translation>地址</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Takes</source>
        <translation>接收</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Delivered</source>
        <translation>已送达</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Last problem</source>
        <translation>最近问题</translation>
    </message>
    <message>
        <location filename="../../widgets/alerts/alertroutingdialog.cpp" line="+25"/>
        <source>Alert routing</source>
        <translation>告警路由</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Routes from &lt;b&gt;%1&lt;/b&gt; (docs/alerting.md). Desktop notifications: %2.</source>
        <translation>路由来自 &lt;b&gt;%1&lt;/b&gt;（见 docs/alerting.md）。桌面通知：%2。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>on</source>
        <translation>开</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>off</source>
        <translation>关</translation>
    </message>
    <message>
        <location line="+15"/>
        <source>Send test to route</source>
        <translation>向路由发送测试</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Test desktop notification</source>
        <translation>测试桌面通知</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Meridian test notification</source>
        <translation>Meridian 测试通知</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>If you read this, desktop notifications work.</source>
        <translation>看到此消息说明桌面通知正常。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Desktop notification sent.</source>
        <translation>桌面通知已发送。</translation>
    </message>
    <message>
        <location line="+34"/>
        <source>Sending a test to %1…</source>
        <translation>正在向 %1 发送测试…</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>%1 took the test alert.</source>
        <translation>%1 已收到测试告警。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Test failed: %1</source>
        <translation>测试失败：%1</translation>
    </message>
</context>
<context>
    <name>meridian::AlertsModel</name>
    <message>
        <location filename="../../models/alerts/alertsmodel.cpp" line="+103"/>
        <source>resolved</source>
        <translation>已恢复</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>silenced until %1</source>
        <translation>静默至 %1</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>silenced by %1 until %2</source>
        <translation>已由 %1 静默至 %2</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>acknowledged by %1</source>
        <translation>已由 %1 确认</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>open</source>
        <translation>未处理</translation>
    </message>
    <message>
        <location line="+31"/>
        <source>critical</source>
        <translation>严重</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>warning</source>
        <translation>警告</translation>
    </message>
    <message>
        <location line="-99"/>
        <source>Next: %1</source>
        <translation>下一步：%1</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Note: %1</source>
        <translation>备注：%1</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Silenced: %1</source>
        <translation>静默原因：%1</translation>
    </message>
    <message>
        <location line="+123"/>
        <source>Severity</source>
        <translation>级别</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>What</source>
        <translation>类型</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Where</source>
        <translation>位置</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Data center</source>
        <translation>数据中心</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>For</source>
        <translation>持续</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>First seen</source>
        <translation>首次出现</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Last seen</source>
        <translation>最近出现</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Count</source>
        <translation>次数</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>State</source>
        <translation>状态</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Next step</source>
        <translation>下一步</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Note</source>
        <translation>备注</translation>
    </message>
</context>
<context>
    <name>meridian::AlertsPanel</name>
    <message>
        <location filename="../../widgets/alerts/alertspanel.cpp" line="+98"/>
        <source>Acknowledge</source>
        <translation>确认</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Silence…</source>
        <translation>静默…</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Silence this alert, its kind on its node or in its data center, or everything there, for a while</source>
        <translation>在一段时间内静默此告警、该节点或该数据中心的同类告警，或其全部告警</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Silences in force, shared by every console on this history file; lift one here</source>
        <translation>生效中的静默，由使用此历史文件的所有控制台共享；可在此解除</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Note…</source>
        <translation>备注…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Open only</source>
        <translation>仅未处理</translation>
    </message>
    <message>
        <location line="+21"/>
        <location line="+2"/>
        <source>Silences (%1)</source>
        <translation>静默规则（%1）</translation>
    </message>
    <message>
        <location line="+142"/>
        <source>Silences</source>
        <translation>静默规则</translation>
    </message>
    <message>
        <location line="+14"/>
        <source>Lift</source>
        <translation>解除</translation>
    </message>
    <message>
        <location line="+26"/>
        <source>Note</source>
        <translation>备注</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Note for %1:</source>
        <translation>%1 的备注：</translation>
    </message>
    <message>
        <location line="-202"/>
        <source>Not grouped</source>
        <translation>不分组</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Grouped by kind</source>
        <translation>按类型分组</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Grouped by data center</source>
        <translation>按数据中心分组</translation>
    </message>
    <message>
        <location filename="../../models/alerts/silencesmodel.cpp" line="+88"/>
        <source>What</source>
        <translation>内容</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Until</source>
        <translation>截止</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>By</source>
        <translation>操作人</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Reason</source>
        <translation>原因</translation>
    </message>
</context>
<context>
    <name>meridian::CardDetailPanel</name>
    <message>
        <location filename="../../widgets/fleet/carddetailpanel.cpp" line="+43"/>
        <source>Select a card in the fleet to see its history.</source>
        <translation>在集群中选择一张卡以查看其历史。</translation>
    </message>
    <message>
        <location line="+133"/>
        <source>No reading: its node reports, this card does not.</source>
        <translation>无读数：所在节点在上报，这张卡没有。</translation>
    </message>
    <message>
        <location line="-76"/>
        <source>Recent events on this node</source>
        <translation>该节点最近的事件</translation>
    </message>
    <message>
        <location line="+89"/>
        <source>%1 · card %2 · %3</source>
        <translation>%1 · 卡 %2 · %3</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>stale</source>
        <translation>已过期</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>live</source>
        <translation>在线</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>unreachable: %1</source>
        <translation>无法连接：%1</translation>
    </message>
    <message>
        <location line="-84"/>
        <source>Last 15 minutes</source>
        <translation>最近 15 分钟</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Last hour</source>
        <translation>最近 1 小时</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Last 6 hours</source>
        <translation>最近 6 小时</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Last 24 hours</source>
        <translation>最近 24 小时</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Last 7 days</source>
        <translation>最近 7 天</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Longer periods come from the Prometheus-compatible store that holds the card; agents&apos; cards show the last 15 minutes</source>
        <translation>更长的时段来自保存该卡数据的 Prometheus 兼容存储；由代理上报的卡显示最近 15 分钟</translation>
    </message>
    <message>
        <location line="+41"/>
        <source>&lt;i&gt;Next:&lt;/i&gt; %1.</source>
        <translation>&lt;i&gt;下一步：&lt;/i&gt;%1。</translation>
    </message>
    <message numerus="yes">
        <location line="+4"/>
        <source>%n uncorrectable error(s) (Xid or ECC) since this console started.</source>
        <translation>
            <numerusform>自本控制台启动以来共 %n 个不可纠正错误（Xid 或 ECC）。</numerusform>
        </translation>
    </message>
    <message>
        <location line="+34"/>
        <source>, reading %1 s old</source>
        <translation>，读数已过 %1 秒</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>UUID %1&lt;br&gt;%2 · rack %3 · %4 · agent %5 (%6)</source>
        <translation>UUID %1&lt;br&gt;%2 · 机架 %3 · %4 · 代理 %5（%6）</translation>
    </message>
    <message>
        <location line="+45"/>
        <source>Longer periods come from the Prometheus-compatible store that holds the card, or from this console&apos;s history file: utilisation and power (memory and temperature are kept for 15 minutes)</source>
        <translation>更长的时段来自保存该卡的 Prometheus 兼容存储，或本控制台的历史文件：利用率和功率（显存和温度只保留 15 分钟）</translation>
    </message>
    <message>
        <location line="+43"/>
        <source>No reading of this card in the last 15 minutes.</source>
        <translation>最近 15 分钟内没有此卡的读数。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>History not read: %1</source>
        <translation>未能读取历史：%1</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Reading the history…</source>
        <translation>正在读取历史…</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>The store holds no reading of this card over this period.</source>
        <translation>存储中没有此卡在该时段的读数。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>The history file holds no readings yet: it keeps each minute of the fleet from when this console began recording.</source>
        <translation>历史文件中还没有读数：它从本控制台开始记录时起保存集群的每一分钟。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Nothing recorded for this card over this period. The history file begins %1.</source>
        <translation>此卡在该时段没有记录。历史文件始于 %1。</translation>
    </message>
    <message>
        <location line="-229"/>
        <source>Utilisation and power from the history file; memory and temperature are kept for the last 15 minutes.</source>
        <translation>利用率和功率来自历史文件；显存和温度只保留最近 15 分钟。</translation>
    </message>
    <message>
        <location line="+124"/>
        <source>; history: %1</source>
        <translation>；历史：%1</translation>
    </message>
    <message>
        <location line="-134"/>
        <source>Node…</source>
        <translation>节点…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The node&apos;s cards, RDMA links and events</source>
        <translation>该节点的卡、RDMA 链路和事件</translation>
    </message>
</context>
<context>
    <name>meridian::DataCenterSummaryModel</name>
    <message>
        <location filename="../../models/fleet/datacentersummarymodel.cpp" line="+119"/>
        <source>%1 of %2, %3 connecting</source>
        <translation>%1 / %2，%3 个连接中</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>%1 of %2</source>
        <translation>%1 / %2</translation>
    </message>
    <message>
        <location line="+15"/>
        <source>%1 of %2 reporting cards at or above %3% utilisation</source>
        <translation>%2 张上报卡中有 %1 张利用率不低于 %3%</translation>
    </message>
    <message>
        <location line="+18"/>
        <source>Data center</source>
        <translation>数据中心</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Cards</source>
        <translation>卡数</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Busy</source>
        <translation>忙碌</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Mean utilisation</source>
        <translation>平均利用率</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Domestic</source>
        <translation>国产占比</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Agents live</source>
        <translation>在线代理</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Stale</source>
        <translation>已过期</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Unreachable</source>
        <translation>不可达</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Accelerator cards in the inventory of the data center&apos;s agents</source>
        <translation>该数据中心各代理清单中的加速卡数量</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Share of reporting cards at or above %1% utilisation now (the line the usage ledger bills as busy)</source>
        <translation>当前上报的卡中利用率不低于 %1% 的比例（用量台账计为繁忙的界线）</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Mean utilisation of the cards reporting now</source>
        <translation>当前上报的卡的平均利用率</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Share of cards made in China (Huawei Ascend, Cambricon MLU, Hygon DCU), against NVIDIA</source>
        <translation>国产卡（华为昇腾、寒武纪 MLU、海光 DCU）相对 NVIDIA 的占比</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Agents whose telemetry arrived within three intervals</source>
        <translation>三个周期内有遥测到达的代理</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Agents that reported before but have been silent for three intervals</source>
        <translation>曾上报但已连续三个周期无数据的代理</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Agents the console cannot connect to (refused, timed out, or their certificate or token was refused)</source>
        <translation>控制台无法连接的代理（被拒绝、超时，或证书、令牌被拒）</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Alerts neither acknowledged, silenced nor resolved</source>
        <translation>未确认、未静默且未解决的告警</translation>
    </message>
    <message>
        <location line="-25"/>
        <source>Open alerts</source>
        <translation>未处理告警</translation>
    </message>
</context>
<context>
    <name>meridian::DesktopNotifier</name>
    <message>
        <location filename="../../models/alerts/desktopnotifier.cpp" line="+37"/>
        <source>desktop notifications: %1</source>
        <translation>桌面通知：%1</translation>
    </message>
</context>
<context>
    <name>meridian::DiagnosticsDialog</name>
    <message>
        <location filename="../../widgets/shell/diagnosticsdialog.cpp" line="+16"/>
        <source>Diagnostics</source>
        <translation>诊断</translation>
    </message>
    <message>
        <location line="+19"/>
        <source>Agents: %1 (%2 live, %3 stale, %4 unreachable)&lt;br&gt;Cards: %5&lt;br&gt;Telemetry: %6 batches/s&lt;br&gt;UI event-loop lag: p50 %7 ms, p99 %8 ms, max %9 ms&lt;br&gt;Memory: %10 MiB · CPU: %11% of one core</source>
        <translation>代理：%1（在线 %2，过期 %3，无法连接 %4）&lt;br&gt;卡：%5&lt;br&gt;遥测：每秒 %6 批&lt;br&gt;界面事件循环延迟：p50 %7 毫秒，p99 %8 毫秒，最大 %9 毫秒&lt;br&gt;内存：%10 MiB · CPU：单核的 %11%</translation>
    </message>
</context>
<context>
    <name>meridian::FabricLegend</name>
    <message>
        <location filename="../../widgets/fabric/fabriclegend.cpp" line="+28"/>
        <source>load &lt; 50%</source>
        <translation>负载 &lt; 50%</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>load 50–90%</source>
        <translation>负载 50–90%</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>load &gt; 90%</source>
        <translation>负载 &gt; 90%</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>load unknown</source>
        <translation>负载未知</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>down</source>
        <translation>中断</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>flapping</source>
        <translation>抖动</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>not heard lately</source>
        <translation>近期无邻居信息</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>PFC ≥ %1/s</source>
        <translation>PFC ≥ %1/秒</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>ECN+CNP ≥ %1/s</source>
        <translation>ECN+CNP ≥ %1/秒</translation>
    </message>
</context>
<context>
    <name>meridian::FabricWindow</name>
    <message>
        <location filename="../../widgets/fabric/fabricwindow.cpp" line="+10"/>
        <source>Meridian — RoCE fabric</source>
        <translation>Meridian — RoCE 网络</translation>
    </message>
    <message>
        <location line="+32"/>
        <source>Fabric</source>
        <translation>网络</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Data center </source>
        <translation>数据中心 </translation>
    </message>
    <message>
        <location line="+3"/>
        <source>  Rail </source>
        <translation>  轨道 </translation>
    </message>
    <message>
        <location line="+2"/>
        <source>All</source>
        <translation>全部</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Fit</source>
        <translation>适应窗口</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Path </source>
        <translation>路径 </translation>
    </message>
    <message>
        <location line="+2"/>
        <source>from node</source>
        <translation>起点节点</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>to node</source>
        <translation>终点节点</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Show</source>
        <translation>显示</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>Fabric file: %1</source>
        <translation>网络拓扑文件：%1</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Findings</source>
        <translation>发现的问题</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Click a link, a switch or a host.</source>
        <translation>点击链路、交换机或主机。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Alerts for this link</source>
        <translation>该链路的告警</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Load</source>
        <translation>负载</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>PFC pauses</source>
        <translation>PFC 暂停</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>per s</source>
        <translation>每秒</translation>
    </message>
    <message>
        <location line="+71"/>
        <source>%1 %2 is not in the fabric: its agent reports no switch neighbour (LLDP) for it</source>
        <translation>%1 %2 不在网络拓扑中：其代理未报告交换机邻居（LLDP）</translation>
    </message>
    <message>
        <location line="+39"/>
        <source>Meridian — RoCE fabric — %1: %2 hosts, %3 host links, %4 findings</source>
        <translation>Meridian — RoCE 网络 — %1：%2 台主机，%3 条主机链路，%4 个问题</translation>
    </message>
    <message>
        <location line="+31"/>
        <source>&lt;b&gt;%1 links to %2&lt;/b&gt;&lt;br/&gt;highest load %3%, PFC %4/s, ECN + CNP %5/s. Click the box of hosts to open it, or zoom in to see each host.</source>
        <translation>&lt;b&gt;%1 条链路连到 %2&lt;/b&gt;&lt;br/&gt;最高负载 %3%，PFC %4/秒，ECN + CNP %5/秒。点击主机框展开，或放大查看每台主机。</translation>
    </message>
    <message>
        <location line="+35"/>
        <source>&lt;b&gt;%1&lt;/b&gt;: %2 links</source>
        <translation>&lt;b&gt;%1&lt;/b&gt;：%2 条链路</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>No path: %1</source>
        <translation>没有路径：%1</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>&lt;b&gt;Path on rail %1&lt;/b&gt;&lt;br/&gt;%2</source>
        <translation>&lt;b&gt;轨道 %1 上的路径&lt;/b&gt;&lt;br/&gt;%2</translation>
    </message>
</context>
<context>
    <name>meridian::FaultResponseModel</name>
    <message>
        <location filename="../../models/cost/faultresponsemodel.cpp" line="+104"/>
        <source>Total</source>
        <translation>合计</translation>
    </message>
    <message>
        <location line="+21"/>
        <source>Alerts acknowledged within %1 minutes of being sent (the escalation time), and their share of all alerts</source>
        <translation>发出后 %1 分钟内（升级时限）被确认的告警数，及其占全部告警的比例</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Alerts resolved within an hour of being sent (the promise to customers), and their share of all alerts</source>
        <translation>发出后一小时内（对客户的承诺）解决的告警数，及其占全部告警的比例</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Alerts not resolved yet</source>
        <translation>尚未解决的告警</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Alerts</source>
        <translation>告警数</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>To ack (median)</source>
        <translation>确认用时（中位数）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>To ack (p90)</source>
        <translation>确认用时（p90）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Acked ≤ %1 min</source>
        <translation>%1 分钟内确认</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>To resolve (median)</source>
        <translation>解决用时（中位数）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>To resolve (p90)</source>
        <translation>解决用时（p90）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Resolved ≤ 1 h</source>
        <translation>1 小时内解决</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Open</source>
        <translation>未解决</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Week</source>
        <translation>周</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Data center</source>
        <translation>数据中心</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Kind</source>
        <translation>类型</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Acknowledged by</source>
        <translation>确认人</translation>
    </message>
</context>
<context>
    <name>meridian::FaultResponseWindow</name>
    <message>
        <location filename="../../widgets/cost/faultresponsewindow.cpp" line="+36"/>
        <location line="+176"/>
        <source>Fault response</source>
        <translation>故障响应</translation>
    </message>
    <message>
        <location line="-162"/>
        <source> min</source>
        <translation> 分钟</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>The escalation time: an alert acknowledged within it counts as answered in time</source>
        <translation>升级时限：在此时间内确认的告警算作及时响应</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Refresh</source>
        <translation>刷新</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Export CSV…</source>
        <translation>导出 CSV…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Export PDF…</source>
        <translation>导出 PDF…</translation>
    </message>
    <message>
        <location line="+39"/>
        <source>Sent</source>
        <translation>发出时间</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>UTC, by</source>
        <translation>UTC，按</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>acknowledged in time within</source>
        <translation>及时确认时限</translation>
    </message>
    <message>
        <location line="-21"/>
        <source>Export CSV</source>
        <translation>导出 CSV</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>CSV (*.csv)</source>
        <translation>CSV（*.csv）</translation>
    </message>
    <message>
        <location line="+40"/>
        <source>Saved %1</source>
        <translation>已保存 %1</translation>
    </message>
    <message>
        <location line="-36"/>
        <source>Export PDF</source>
        <translation>导出 PDF</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>PDF (*.pdf)</source>
        <translation>PDF（*.pdf）</translation>
    </message>
    <message>
        <location line="+54"/>
        <source>Reading the alerts sent…</source>
        <translation>正在读取已发出的告警…</translation>
    </message>
    <message>
        <location line="+18"/>
        <source>No fault-response figures: %1</source>
        <translation>没有故障响应数据：%1</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>No alert was sent in this period.</source>
        <translation>本期间未发出告警。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>%1 alert(s) sent: %2% acknowledged within %3 min, %4% resolved within the hour; %5 still open. Times run from when the receivers were told.</source>
        <translation>已发出 %1 条告警：%2% 在 %3 分钟内确认，%4% 在一小时内解决；%5 条仍未解决。用时从通知接收方时算起。</translation>
    </message>
    <message>
        <location line="+29"/>
        <source>Fault response %1 – %2 (UTC)</source>
        <translation>故障响应 %1 – %2（UTC）</translation>
    </message>
</context>
<context>
    <name>meridian::FleetHeatmap</name>
    <message>
        <location filename="../../widgets/fleet/fleetheatmap.cpp" line="+9"/>
        <source>%1 — %2 cards</source>
        <translation>%1 — %2 张卡</translation>
    </message>
    <message>
        <location line="+11"/>
        <source> · %1 of %2 agents unreachable</source>
        <translation> · %2 个代理中 %1 个无法连接</translation>
    </message>
    <message>
        <location line="+4"/>
        <source> · %1 stale</source>
        <translation> · %1 个已过期</translation>
    </message>
    <message>
        <location line="+366"/>
        <source>unreachable: %1</source>
        <translation>无法连接：%1</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>stale: last seen %1</source>
        <translation>已过期：最后一次看到于 %1</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>card %1 · %2</source>
        <translation>卡 %1 · %2</translation>
    </message>
    <message numerus="yes">
        <location line="+14"/>
        <source>%n error event(s)</source>
        <translation>
            <numerusform>%n 个错误事件</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>meridian::FleetToolbar</name>
    <message>
        <location filename="../../widgets/fleet/fleettoolbar.cpp" line="+28"/>
        <source>Fleet</source>
        <translation>集群</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Colour by </source>
        <translation>着色依据 </translation>
    </message>
    <message>
        <location line="+6"/>
        <source> Data center </source>
        <translation> 数据中心 </translation>
    </message>
    <message>
        <location line="+1"/>
        <location line="+3"/>
        <location line="+7"/>
        <location line="+3"/>
        <source>All</source>
        <translation>全部</translation>
    </message>
    <message>
        <location line="-11"/>
        <source> Vendor </source>
        <translation> 厂商 </translation>
    </message>
    <message>
        <location line="+7"/>
        <source> Model </source>
        <translation> 型号 </translation>
    </message>
    <message>
        <location line="+3"/>
        <source> State </source>
        <translation> 状态 </translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Faulty</source>
        <translation>故障</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Live</source>
        <translation>在线</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Idle (below %1%)</source>
        <translation>空闲（低于 %1%）</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Stale</source>
        <translation>已过期</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Unreachable</source>
        <translation>不可达</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>With errors</source>
        <translation>有错误</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>No reading</source>
        <translation>无读数</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Search host, node or card UUID (Ctrl+F)</source>
        <translation>搜索主机、节点或卡 UUID（Ctrl+F）</translation>
    </message>
</context>
<context>
    <name>meridian::FleetUsageWindow</name>
    <message>
        <location filename="../../widgets/fleet/fleetusagewindow.cpp" line="+87"/>
        <source>Meridian — fleet utilisation</source>
        <translation>Meridian — 集群利用率</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Last 24 hours</source>
        <translation>最近 24 小时</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Last 7 days</source>
        <translation>最近 7 天</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Refresh</source>
        <translation>刷新</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Utilisation, hour by hour, over</source>
        <translation>逐小时利用率，时段</translation>
    </message>
    <message>
        <location line="+27"/>
        <source>Reading the history file…</source>
        <translation>正在读取历史文件…</translation>
    </message>
    <message>
        <location line="+27"/>
        <source>Fleet %1</source>
        <translation>集群 %1</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>Fleet</source>
        <translation>集群</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Fleet, a data center without data</source>
        <translation>集群（有数据中心缺数据）</translation>
    </message>
    <message>
        <location line="+16"/>
        <source>Mean utilisation: %1.</source>
        <translation>平均利用率：%1。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Hours without data: %1 (gaps in the lines).</source>
        <translation>无数据的小时数：%1（曲线中的空缺）。</translation>
    </message>
    <message numerus="yes">
        <location line="+4"/>
        <source>%1 %n h</source>
        <translation>
            <numerusform>%1 %n 小时</numerusform>
        </translation>
    </message>
    <message>
        <location line="+2"/>
        <source>The fleet&apos;s line is dotted where a data center had no data: %1.</source>
        <translation>数据中心缺数据的时段，集群曲线以点线绘制：%1。</translation>
    </message>
</context>
<context>
    <name>meridian::HeatmapLegend</name>
    <message>
        <location filename="../../widgets/fleet/heatmaplegend.cpp" line="+116"/>
        <source>no reading</source>
        <translation>无读数</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>stale</source>
        <translation>已过期</translation>
    </message>
    <message>
        <location line="-100"/>
        <source>idle</source>
        <translation>空闲</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>busy</source>
        <translation>繁忙</translation>
    </message>
    <message>
        <location line="+96"/>
        <source>link fault</source>
        <translation>链路故障</translation>
    </message>
    <message>
        <location line="-76"/>
        <source>Health shows the worst of each card: Xid, uncorrectable ECC, thermal or hardware throttling, an unreachable or stale agent; a ring round a node is a link down or flapping. Healthy cards show their utilisation.</source>
        <translation>健康视图显示每张卡最严重的状况：Xid、不可纠正 ECC、过热或硬件降频、代理不可达或数据过期；节点外的蓝框表示链路中断或抖动。健康的卡显示其利用率。</translation>
    </message>
</context>
<context>
    <name>meridian::MainWindow</name>
    <message>
        <location filename="../../widgets/shell/mainwindow.cpp" line="+53"/>
        <source>Meridian — fleet</source>
        <translation>Meridian — 集群</translation>
    </message>
    <message>
        <location line="+65"/>
        <source>Card</source>
        <translation>卡</translation>
    </message>
    <message>
        <location line="+19"/>
        <source>Alerts</source>
        <translation>告警</translation>
    </message>
    <message>
        <location line="+16"/>
        <source>Alerts (%1 open)</source>
        <translation>告警（%1 条未处理）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Alerts (%1 open), %2</source>
        <translation>告警（%1 条未处理），%2</translation>
    </message>
    <message>
        <location line="+46"/>
        <source>&amp;View</source>
        <translation>视图(&amp;V)</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>RoCE &amp;fabric…</source>
        <translation>RoCE 网络(&amp;F)…</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>&amp;Alerts</source>
        <translation>告警(&amp;A)</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Alert &amp;routing…</source>
        <translation>告警路由(&amp;R)…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Theme</source>
        <translation>主题(&amp;T)</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>System</source>
        <translation>跟随系统</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Light</source>
        <translation>浅色</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Dark</source>
        <translation>深色</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>&amp;Reports</source>
        <translation>报告(&amp;R)</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>&amp;Utilisation and cost…</source>
        <translation>利用率与成本(&amp;U)…</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>&amp;Price book…</source>
        <translation>价格表(&amp;P)…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>P&amp;lan: own, contract, rent…</source>
        <translation>规划(&amp;L)：自有、签约、租用…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Scaling</source>
        <translation>扩容(&amp;S)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Elastic scaling…</source>
        <translation>弹性扩容(&amp;E)…</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>&amp;Help</source>
        <translation>帮助(&amp;H)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Diagnostics</source>
        <translation>诊断(&amp;D)</translation>
    </message>
    <message>
        <location line="+48"/>
        <source>Time machine: %1</source>
        <translation>时间回溯：%1</translation>
    </message>
    <message>
        <location filename="../../widgets/shell/mainwindowtools.cpp" line="+109"/>
        <source>No alert for %1 %2</source>
        <translation>%1 %2 没有告警</translation>
    </message>
    <message>
        <location filename="../../widgets/shell/mainwindow.cpp" line="+26"/>
        <source>%1 agents: %2 live, %3 stale, %4 unreachable</source>
        <translation>%1 个代理：%2 个在线，%3 个无数据，%4 个不可达</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>, %1 connecting</source>
        <translation>，%1 个连接中</translation>
    </message>
    <message>
        <location line="+1"/>
        <source> · %1 cards</source>
        <translation> · %1 张卡</translation>
    </message>
    <message>
        <location line="+6"/>
        <source> · newest reading %1 s old</source>
        <translation> · 最新读数已过 %1 秒</translation>
    </message>
    <message>
        <location line="+3"/>
        <source> · %1 match the filter</source>
        <translation> · %1 张符合筛选</translation>
    </message>
    <message>
        <location line="+110"/>
        <source>Close Meridian?</source>
        <translation>关闭 Meridian？</translation>
    </message>
    <message>
        <location line="-238"/>
        <source>Fleet &amp;utilisation…</source>
        <translation>集群利用率(&amp;U)…</translation>
    </message>
    <message>
        <location filename="../../widgets/shell/mainwindowtools.cpp" line="-67"/>
        <source>Fleet utilisation needs the history file, which is off in this session</source>
        <translation>集群利用率需要历史文件，本次会话未启用</translation>
    </message>
</context>
<context>
    <name>meridian::NodeCardsModel</name>
    <message>
        <location filename="../../models/fleet/nodepagemodels.cpp" line="+89"/>
        <source>Card</source>
        <translation>卡</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Model</source>
        <translation>型号</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Health</source>
        <translation>健康</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Xid/ECC</source>
        <translation>Xid/ECC</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>UUID</source>
        <translation>UUID</translation>
    </message>
</context>
<context>
    <name>meridian::NodeLinksModel</name>
    <message>
        <location line="+20"/>
        <source>up</source>
        <translation>正常</translation>
    </message>
    <message>
        <location line="+1"/>
        <location line="+32"/>
        <source>down</source>
        <translation>中断</translation>
    </message>
    <message>
        <location line="-31"/>
        <source>unknown</source>
        <translation>未知</translation>
    </message>
    <message>
        <location line="+39"/>
        <source>(no LLDP)</source>
        <translation>（无 LLDP）</translation>
    </message>
    <message>
        <location line="+15"/>
        <source>NIC</source>
        <translation>网卡</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>State</source>
        <translation>状态</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Switch port (LLDP)</source>
        <translation>交换机端口（LLDP）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Nearest card</source>
        <translation>最近的卡</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Rx Gb/s</source>
        <translation>接收 Gb/s</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Tx Gb/s</source>
        <translation>发送 Gb/s</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Drops (10 min)</source>
        <translation>中断次数（10 分钟）</translation>
    </message>
</context>
<context>
    <name>meridian::NodePage</name>
    <message>
        <location filename="../../widgets/fleet/nodepage.cpp" line="+50"/>
        <source>Cards (double-click one to open it)</source>
        <translation>卡（双击打开）</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>RDMA links</source>
        <translation>RDMA 链路</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Recent events</source>
        <translation>最近事件</translation>
    </message>
    <message>
        <location line="+28"/>
        <source>Node %1</source>
        <translation>节点 %1</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>live</source>
        <translation>在线</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>connecting</source>
        <translation>连接中</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>stale</source>
        <translation>已过期</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>unreachable: %1</source>
        <translation>不可达：%1</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>rack %1</source>
        <translation>机柜 %1</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>agent %1</source>
        <translation>代理 %1</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>a link is down or flapping</source>
        <translation>有链路中断或抖动</translation>
    </message>
</context>
<context>
    <name>meridian::PlanWindow</name>
    <message>
        <location filename="../../widgets/plan/planwindow.cpp" line="+28"/>
        <source>Meridian — plan: own, contract, rent</source>
        <translation>Meridian — 规划：自有、签约、租用</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Choose the service&apos;s demand and press Plan.</source>
        <translation>选择服务的需求数据，然后点击“规划”。</translation>
    </message>
    <message>
        <location line="+81"/>
        <source>Demand from a file</source>
        <translation>从文件读取需求</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>A demand file, or a service&apos;s demand as its controller recorded it in the history file</source>
        <translation>需求文件，或控制器在历史文件中记录的某个服务的需求</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>ServeGen rates or a minutes CSV</source>
        <translation>ServeGen 速率文件或分钟 CSV</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Demand…</source>
        <translation>需求…</translation>
    </message>
    <message>
        <location line="-45"/>
        <source> A100s at the peak</source>
        <translation> 张 A100（峰值）</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>card costs: the price book&apos;s</source>
        <translation>卡成本：采用价格表中的数值</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Costs…</source>
        <translation>成本…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Plan</source>
        <translation>规划</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Backtest</source>
        <translation>回测</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Plan from the first week, judge the plan on the week after</source>
        <translation>依据第一周规划，并以下一周检验</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>PDF…</source>
        <translation>PDF…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The plan shown, as a PDF for the budget</source>
        <translation>将当前规划导出为 PDF，供预算使用</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Save the plan</source>
        <translation>保存规划</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>PDF (*.pdf)</source>
        <translation>PDF（*.pdf）</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Saved %1</source>
        <translation>已保存 %1</translation>
    </message>
    <message>
        <location line="+29"/>
        <source>The service&apos;s demand</source>
        <translation>服务的需求</translation>
    </message>
    <message>
        <location line="-25"/>
        <source>Card costs</source>
        <translation>卡成本</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>YAML (*.yaml *.yml)</source>
        <translation>YAML (*.yaml *.yml)</translation>
    </message>
    <message>
        <location line="+49"/>
        <source>%1: recorded demand</source>
        <translation>%1：记录的需求</translation>
    </message>
    <message>
        <location line="+21"/>
        <source>Weighing every mix…</source>
        <translation>正在评估所有组合…</translation>
    </message>
</context>
<context>
    <name>meridian::PriceBookDialog</name>
    <message>
        <location filename="../../widgets/cost/pricebookdialog.cpp" line="+53"/>
        <source>Price book</source>
        <translation>价格表</translation>
    </message>
    <message>
        <location line="+1"/>
        <location line="+3"/>
        <source>Card model</source>
        <translation>卡型号</translation>
    </message>
    <message>
        <location line="-3"/>
        <source>Vendor</source>
        <translation>厂商</translation>
    </message>
    <message>
        <location line="+0"/>
        <location line="+3"/>
        <source>Data center</source>
        <translation>数据中心</translation>
    </message>
    <message>
        <location line="-3"/>
        <source>CNY per card-hour</source>
        <translation>每卡时价格（元）</translation>
    </message>
    <message>
        <location line="+1"/>
        <location line="+3"/>
        <source>From (UTC)</source>
        <translation>起始（UTC）</translation>
    </message>
    <message>
        <location line="-3"/>
        <location line="+3"/>
        <source>To (UTC)</source>
        <translation>截止（UTC）</translation>
    </message>
    <message>
        <location line="-1"/>
        <source>Customer</source>
        <translation>客户</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Node</source>
        <translation>节点</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Discount %</source>
        <translation>折扣 %</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>The most specific price wins: a card model over a vendor, a data center over any. Prices in force are history: set an end, or add a new price from now on. Contracts of six months or more get 10% off unless they state a discount.</source>
        <translation>最具体的价格优先：卡型号优先于厂商，指定数据中心优先于任意数据中心。已生效的价格属于历史：只能设置截止时间，或从现在起新增价格。六个月及以上的合同享受 9 折，除非另有约定折扣。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Add price</source>
        <translation>新增价格</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Add contract</source>
        <translation>新增合同</translation>
    </message>
    <message>
        <location line="+14"/>
        <source>&lt;b&gt;Prices&lt;/b&gt;</source>
        <translation>&lt;b&gt;价格&lt;/b&gt;</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>&lt;b&gt;Contracts&lt;/b&gt;</source>
        <translation>&lt;b&gt;合同&lt;/b&gt;</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Saved to %1</source>
        <translation>保存到 %1</translation>
    </message>
    <message>
        <location line="+42"/>
        <source>In force since %1: only its end can change</source>
        <translation>自 %1 起生效：只能修改截止时间</translation>
    </message>
    <message>
        <location line="+65"/>
        <location line="+4"/>
        <location line="+3"/>
        <location line="+4"/>
        <location line="+2"/>
        <location line="+6"/>
        <source>Prices</source>
        <translation>价格</translation>
    </message>
    <message>
        <location line="-18"/>
        <source>vendor must be nvidia, huawei, cambricon or hygon</source>
        <translation>厂商必须是 nvidia、huawei、cambricon 或 hygon</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>name a card model, a vendor or a data center</source>
        <translation>请填写卡型号、厂商或数据中心</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>CNY per card-hour must be a number from 0 to 10000</source>
        <translation>每卡时价格必须是 0 到 10000 之间的数字</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>From must be a date such as 2026-07-01</source>
        <translation>起始必须是日期，例如 2026-07-01</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>a new price starts now or later; the past keeps its prices</source>
        <translation>新价格只能从现在或以后开始；过去保持原价</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>To must be a date after From</source>
        <translation>截止必须晚于起始</translation>
    </message>
    <message>
        <location line="+15"/>
        <location line="+2"/>
        <location line="+8"/>
        <source>Contracts</source>
        <translation>合同</translation>
    </message>
    <message>
        <location line="-10"/>
        <source>a contract needs From and a later To</source>
        <translation>合同需要起始和更晚的截止</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>a new contract starts now or later; the past keeps its prices</source>
        <translation>新合同只能从现在或以后开始；过去保持原价</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Discount % must be 0 to 100, or empty</source>
        <translation>折扣 % 必须在 0 到 100 之间，或留空</translation>
    </message>
</context>
<context>
    <name>meridian::ReportTableModel</name>
    <message>
        <location filename="../../models/cost/reporttablemodel.cpp" line="+64"/>
        <source>(no service)</source>
        <translation>（无服务）</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>(no contract: list price)</source>
        <translation>（无合同：按目录价）</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Data center</source>
        <translation>数据中心</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Vendor</source>
        <translation>厂商</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Card model</source>
        <translation>卡型号</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Node</source>
        <translation>节点</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Inference service</source>
        <translation>推理服务</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Customer</source>
        <translation>客户</translation>
    </message>
    <message>
        <location line="+19"/>
        <source>Total</source>
        <translation>合计</translation>
    </message>
    <message>
        <location line="+25"/>
        <source>Card-hours no price in the price book covers: counted, not billed</source>
        <translation>价格表未覆盖的卡时：计入统计，不计费</translation>
    </message>
    <message>
        <location line="+22"/>
        <source>Cards</source>
        <translation>卡数</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Card-hours</source>
        <translation>卡时</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Busy</source>
        <translation>忙碌</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Mean utilisation</source>
        <translation>平均利用率</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Idle card-hours</source>
        <translation>空闲卡时</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Value (CNY)</source>
        <translation>价值（元）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Idle value (CNY)</source>
        <translation>空闲价值（元）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Energy (kWh)</source>
        <translation>能耗（千瓦时）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Unpriced card-hours</source>
        <translation>未计价卡时</translation>
    </message>
    <message>
        <location line="-7"/>
        <source>Coverage</source>
        <translation>覆盖率</translation>
    </message>
    <message>
        <location line="-15"/>
        <source>Share of recorded card-hours at or above 5% utilisation: a card busy at 20% for an hour is a busy card-hour, so Busy runs well above Mean utilisation</source>
        <translation>利用率不低于 5% 的已记录卡时占比：一张卡以 20% 利用率运行一小时也算一个忙碌卡时，所以忙碌占比远高于平均利用率</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Share of the card-hours these cards would give over the period (up to now) that the history holds: below 100%, minutes are missing, not idle</source>
        <translation>历史中已有的卡时占这些卡在本周期（截至现在）应有卡时的比例：低于 100% 表示有分钟缺失，而不是空闲</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Average utilisation over the recorded card-hours</source>
        <translation>已记录卡时的平均利用率</translation>
    </message>
</context>
<context>
    <name>meridian::ReportsWindow</name>
    <message>
        <location filename="../../widgets/cost/reportswindow.cpp" line="+70"/>
        <source>Meridian — utilisation and cost</source>
        <translation>Meridian — 利用率与成本</translation>
    </message>
    <message>
        <location line="+49"/>
        <source>This month</source>
        <translation>本月</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Last month</source>
        <translation>上月</translation>
    </message>
    <message>
        <location line="-2"/>
        <source>Last 7 days</source>
        <translation>最近 7 天</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Today</source>
        <translation>今天</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Last 30 days</source>
        <translation>最近 30 天</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>This quarter</source>
        <translation>本季度</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Year to date</source>
        <translation>年初至今</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Custom</source>
        <translation>自定义</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>Daily</source>
        <translation>按日</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Weekly</source>
        <translation>按周</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Refresh</source>
        <translation>刷新</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Export CSV…</source>
        <translation>导出 CSV…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Export PDF…</source>
        <translation>导出 PDF…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Price book…</source>
        <translation>价格表…</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Period</source>
        <translation>期间</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>UTC, by</source>
        <translation>UTC，按</translation>
    </message>
    <message>
        <location line="+75"/>
        <source>Export CSV</source>
        <translation>导出 CSV</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>CSV (*.csv)</source>
        <translation>CSV（*.csv）</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Saved %1 (cloud leases, if any, beside it as …-cloud.csv)</source>
        <translation>已保存 %1（如有云租用，另存为同目录下的 …-cloud.csv）</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Saved %1</source>
        <translation>已保存 %1</translation>
    </message>
    <message>
        <location line="+140"/>
        <source>%1 cards · %2</source>
        <translation>%1 张卡 · %2</translation>
    </message>
    <message>
        <location line="+18"/>
        <source>%1 %2</source>
        <translation>%1 %2</translation>
    </message>
    <message>
        <location line="+1"/>
        <location filename="../../models/cost/cloudspendmodel.cpp" line="+55"/>
        <source>(not the autoscaler&apos;s)</source>
        <translation>（非自动扩缩容）</translation>
    </message>
    <message>
        <location line="-163"/>
        <source>Export PDF</source>
        <translation>导出 PDF</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>PDF (*.pdf)</source>
        <translation>PDF（*.pdf）</translation>
    </message>
    <message>
        <location line="+100"/>
        <source>Reports need the cost history, which is off in this session.</source>
        <translation>报告需要成本历史，本次会话中成本历史已停用。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>The period is empty: the last day comes before the first.</source>
        <translation>期间为空：结束日期早于开始日期。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Building the report…</source>
        <translation>正在生成报告…</translation>
    </message>
    <message>
        <location line="+92"/>
        <source>no usage recorded in this period</source>
        <translation>本期间没有用量记录</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>%1 card-hours have no price in the price book</source>
        <translation>%1 卡时在价格表中没有价格</translation>
    </message>
    <message>
        <location line="+36"/>
        <location line="+21"/>
        <source>No report to export yet.</source>
        <translation>还没有可导出的报告。</translation>
    </message>
    <message>
        <location line="-117"/>
        <source>Value of own cards</source>
        <translation>自有卡的价值</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Idle value</source>
        <translation>空闲价值</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>%1 of the value · %2</source>
        <translation>占价值的 %1 · %2</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Busy share of card-hours</source>
        <translation>忙碌卡时占比</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>%1 busy, %2 idle card-hours · mean utilisation %3 · coverage %4 · %5</source>
        <translation>忙碌 %1、空闲 %2 卡时 · 平均利用率 %3 · 覆盖率 %4 · %5</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>Cloud spend</source>
        <translation>云端支出</translation>
    </message>
    <message>
        <location line="+30"/>
        <source>values are customer prices from the price book (what a card-hour earns, contract discounts applied); idle value is revenue not earned; busy is a card-hour at or above 5% utilisation</source>
        <translation>金额按价目表中的客户价格计（每卡时的收入，已计合同折扣）；空闲价值即未实现的收入；利用率不低于 5% 的卡时计为忙碌</translation>
    </message>
    <message>
        <location line="-290"/>
        <source>Fault response…</source>
        <translation>故障响应…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>How fast alerts were acknowledged and resolved in this period</source>
        <translation>本期间告警被确认和解决的速度</translation>
    </message>
    <message>
        <location filename="../../models/cost/cloudspendmodel.cpp" line="+17"/>
        <source>Cloud lease</source>
        <translation>云租约</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Service</source>
        <translation>服务</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Region</source>
        <translation>区域</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Card model</source>
        <translation>卡型号</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Cards</source>
        <translation>卡数</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>CNY per card-hour</source>
        <translation>每卡时价格（元）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Billed hours</source>
        <translation>计费小时</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Spend (CNY)</source>
        <translation>支出（元）</translation>
    </message>
</context>
<context>
    <name>meridian::ScalingCharts</name>
    <message>
        <location filename="../../widgets/scaling/scalingcharts.cpp" line="+103"/>
        <source>Replicas</source>
        <translation>副本</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>serving</source>
        <translation>服务中</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>starting</source>
        <translation>启动中</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>desired</source>
        <translation>期望</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>replicas</source>
        <translation>副本数</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Load and latency</source>
        <translation>负载与延迟</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>arrivals (req/s)</source>
        <translation>到达（请求/秒）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>queueing p95 (s)</source>
        <translation>排队延迟 p95（秒）</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>TTFT p95 (s)</source>
        <translation>首字延迟 p95（秒）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>objective (s)</source>
        <translation>目标（秒）</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>req/s</source>
        <translation>请求/秒</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>seconds</source>
        <translation>秒</translation>
    </message>
</context>
<context>
    <name>meridian::ScalingWindow</name>
    <message>
        <location filename="../../widgets/scaling/scalingwindow.cpp" line="+61"/>
        <source>Meridian — Elastic scaling</source>
        <translation>Meridian — 弹性扩容</translation>
    </message>
    <message>
        <location line="+82"/>
        <source>Scaling</source>
        <translation>扩容</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Approval: </source>
        <translation>审批：</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Manual — plan only when asked</source>
        <translation>手动 — 仅在请求时生成计划</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Assisted — plans wait for one click</source>
        <translation>辅助 — 计划等待一键批准</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Automatic — within each service&apos;s caps</source>
        <translation>自动 — 在各服务的上限内</translation>
    </message>
    <message>
        <location line="-61"/>
        <source>Approval mode</source>
        <translation>审批模式</translation>
    </message>
    <message>
        <location line="+71"/>
        <source>Edit services…</source>
        <translation>编辑服务…</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Simulated demand (req/s): </source>
        <translation>模拟需求（请求/秒）：</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Puts load on the selected service in the embedded simulator</source>
        <translation>在内置模拟器中为所选服务施加负载</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Apply</source>
        <translation>应用</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Plan</source>
        <translation>计划</translation>
    </message>
    <message>
        <location line="-90"/>
        <location line="+95"/>
        <location line="+56"/>
        <source>Approve plan</source>
        <translation>批准计划</translation>
    </message>
    <message>
        <location line="-55"/>
        <source>Reject</source>
        <translation>拒绝</translation>
    </message>
    <message>
        <location line="-97"/>
        <location line="+98"/>
        <source>Plan now</source>
        <translation>立即生成计划</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Give back at the paid hour&apos;s end</source>
        <translation>在已付费小时结束时归还</translation>
    </message>
    <message>
        <location line="-99"/>
        <source>Reject plan</source>
        <translation>拒绝计划</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Give back surplus nodes</source>
        <translation>归还多余节点</translation>
    </message>
    <message>
        <location line="+38"/>
        <source>Journal</source>
        <translation>日志</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Audit log</source>
        <translation>审计日志</translation>
    </message>
    <message>
        <location line="+144"/>
        <source>Scaling is off: %1</source>
        <translation>扩容已停用：%1</translation>
    </message>
    <message>
        <location line="+34"/>
        <source>No inference services are declared.</source>
        <translation>未声明任何推理服务。</translation>
    </message>
    <message numerus="yes">
        <location line="+50"/>
        <source>%n replica(s) on free local cards</source>
        <translation>
            <numerusform>在空闲本地卡上启动 %n 个副本</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+2"/>
        <source>%n rented node(s) for %1 CNY/h</source>
        <translation>
            <numerusform>租用 %n 个节点，每小时 %1 元</numerusform>
        </translation>
    </message>
    <message>
        <location line="+2"/>
        <source>&lt;b&gt;Plan %1 waiting for approval:&lt;/b&gt; %2. </source>
        <translation>&lt;b&gt;计划 %1 待审批：&lt;/b&gt;%2。</translation>
    </message>
    <message>
        <location line="-45"/>
        <source>nothing to change</source>
        <translation>无需变更</translation>
    </message>
    <message>
        <location line="+47"/>
        <location line="+20"/>
        <source> and </source>
        <translation>，</translation>
    </message>
    <message>
        <location line="-320"/>
        <source>Sending: %1…</source>
        <translation>正在发送：%1…</translation>
    </message>
    <message>
        <location line="+304"/>
        <source>Rented nodes are paid by the started hour: %1 CNY each hour they run, at least %1 CNY.</source>
        <translation>租用节点按开始计费的小时付费：运行期间每小时 %1 元，至少 %1 元。</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>With it, %1 rents for %2 of its %3 CNY/h budget (%4%).</source>
        <translation>审批后，%1 的租用花费为每小时 %2 元，占其每小时 %3 元预算的 %4%。</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Approve plan %1 for %2: %3?

%4</source>
        <translation>审批 %2 的计划 %1：%3？

%4</translation>
    </message>
    <message>
        <location line="-31"/>
        <source>No plan waiting. </source>
        <translation>没有待批准的计划。</translation>
    </message>
    <message>
        <location line="-36"/>
        <source>Policy: %1 — %2</source>
        <translation>策略：%1 — %2</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Daily shape: earlier days reached %1 req/s from this time of day within the forecast lead.</source>
        <translation>日内规律：前几天从每天的这个时刻起，在预测提前期内曾达到 %1 次请求/秒。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Held back: %1</source>
        <translation>受限：%1</translation>
    </message>
    <message numerus="yes">
        <location line="+9"/>
        <source>%n scaling step(s) no longer needed: rented nodes go back in the two minutes before their paid hour ends, local replicas stop.</source>
        <translation>
            <numerusform>%n 个扩容步骤已不再需要：租用节点在已付费小时结束前两分钟内归还，本地副本停止。</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+3"/>
        <source>%n scaling step(s) no longer needed; rented nodes are paid to the end of their hour either way.</source>
        <translation>
            <numerusform>%n 个扩容步骤已不再需要；租用节点无论如何都已付费至本小时结束。</numerusform>
        </translation>
    </message>
    <message>
        <location line="+4"/>
        <source>No surplus rented capacity.</source>
        <translation>没有多余的租用算力。</translation>
    </message>
    <message>
        <location filename="../../models/scaling/scalingtablemodels.cpp" line="+60"/>
        <source>steady: enough replicas for the demand</source>
        <translation>平稳：副本足以满足需求</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>more demand than the replicas serve</source>
        <translation>需求超出现有副本的服务能力</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>a sudden surge: adding replicas at once</source>
        <translation>突发激增：立即增加副本</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>answers too slow: time to first token over the objective</source>
        <translation>响应过慢：首字延迟超出目标</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>less demand: replicas to spare</source>
        <translation>需求下降：副本有富余</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>at the service&apos;s minimum or maximum replicas</source>
        <translation>已达服务的最小或最大副本数</translation>
    </message>
    <message>
        <location line="+59"/>
        <location line="+53"/>
        <source>Service</source>
        <translation>服务</translation>
    </message>
    <message>
        <location line="-53"/>
        <source>Serving local</source>
        <translation>本地服务中</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Serving rented</source>
        <translation>租用服务中</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Starting</source>
        <translation>启动中</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Desired</source>
        <translation>期望</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Arrivals req/s</source>
        <translation>到达（请求/秒）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Waiting</source>
        <translation>排队中</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Queue p95 s</source>
        <translation>排队 p95（秒）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>TTFT p95 s</source>
        <translation>首字延迟 p95（秒）</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Rented cards</source>
        <translation>租用卡数</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Rented CNY/h</source>
        <translation>租用（元/小时）</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Decision</source>
        <translation>决策</translation>
    </message>
    <message>
        <location line="+47"/>
        <source>Step</source>
        <translation>步骤</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Created</source>
        <translation>创建时间</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>State</source>
        <translation>状态</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Offer</source>
        <translation>报价</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Lease</source>
        <translation>租约</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Node</source>
        <translation>节点</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>CNY/h</source>
        <translation>元/小时</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>By</source>
        <translation>操作人</translation>
    </message>
    <message>
        <location line="+0"/>
        <location line="+38"/>
        <source>Why</source>
        <translation>原因</translation>
    </message>
    <message>
        <location line="-1"/>
        <source>When</source>
        <translation>时间</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Who</source>
        <translation>操作人</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>What</source>
        <translation>内容</translation>
    </message>
</context>
<context>
    <name>meridian::ServicesDialog</name>
    <message>
        <location filename="../../widgets/scaling/servicesdialog.cpp" line="+24"/>
        <source>Inference services</source>
        <translation>推理服务</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Saved to %1. The autoscaler restarts with it.</source>
        <translation>保存到 %1。自动扩容将按其重新启动。</translation>
    </message>
    <message>
        <location line="+42"/>
        <source>Cannot write a scratch copy: %1</source>
        <translation>无法写入临时副本：%1</translation>
    </message>
    <message>
        <location line="+15"/>
        <source>%1: %2</source>
        <translation>%1：%2</translation>
    </message>
</context>
<context>
    <name>meridian::SilenceDialog</name>
    <message>
        <location filename="../../widgets/alerts/silencedialog.cpp" line="+17"/>
        <location line="+22"/>
        <source>Silence</source>
        <translation>静默</translation>
    </message>
    <message>
        <location line="-17"/>
        <source>This alert: %1</source>
        <translation>此告警：%1</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>%1 on %2</source>
        <translation>%2 上的%1</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Everything on %1</source>
        <translation>%1 上的全部告警</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>%1 in %2</source>
        <translation>%2 的%1</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Everything in %1</source>
        <translation>%1 的全部告警</translation>
    </message>
    <message numerus="yes">
        <location line="+4"/>
        <source>%n hour(s)</source>
        <translation>
            <numerusform>%n 小时</numerusform>
        </translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Why (seen by every console on this history file)</source>
        <translation>原因（使用此历史文件的所有控制台都能看到）</translation>
    </message>
    <message>
        <location line="+6"/>
        <location line="+5"/>
        <source>Say why first: every console and receiver shows the reason</source>
        <translation>请先填写原因：每个控制台和接收方都会显示它</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>What</source>
        <translation>内容</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>For</source>
        <translation>持续</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Reason</source>
        <translation>原因</translation>
    </message>
</context>
<context>
    <name>meridian::TeamWatcherLink</name>
    <message>
        <location filename="../../models/alerts/teamwatcherlink.cpp" line="+50"/>
        <source>from the watcher at %1 (not heard from yet)</source>
        <translation>来自 %1 的值守进程（尚未收到应答）</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>from %1</source>
        <translation>来自 %1</translation>
    </message>
    <message>
        <location line="+40"/>
        <source> (the list shown is %1 old)</source>
        <translation>（当前显示的列表已是 %1 前的）</translation>
    </message>
    <message>
        <location line="+19"/>
        <source>the watcher is behind: %1</source>
        <translation>值守进程自身滞后：%1</translation>
    </message>
</context>
<context>
    <name>meridian::TimeMachineBar</name>
    <message>
        <location filename="../../widgets/fleet/timemachinebar.cpp" line="+66"/>
        <source>Time</source>
        <translation>时间</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Drag back through the last 7 days of the history file: each card&apos;s utilisation that minute (that hour beyond a day), the alerts open then, the scaling steps taken</source>
        <translation>在历史文件的最近 7 天中向回拖动：每张卡在该分钟（一天以前为该小时）的利用率、当时未解决的告警、已执行的扩缩容步骤</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>← → a minute, PgUp an hour back, PgDn an hour toward now, End live</source>
        <translation>← → 一分钟，PgUp 向过去一小时，PgDn 向现在一小时，End 回到实时</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Type a moment of the last 7 days and press Enter</source>
        <translation>输入最近 7 天内的某一时刻，按回车</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Times are the computer&apos;s local time, as in the alert list</source>
        <translation>时间为本机本地时间，与告警列表一致</translation>
    </message>
    <message>
        <location line="+5"/>
        <location line="+8"/>
        <location line="+45"/>
        <source>Live</source>
        <translation>实时</translation>
    </message>
    <message>
        <location line="-44"/>
        <source>Back to the fleet as it is now</source>
        <translation>回到集群的当前状态</translation>
    </message>
    <message>
        <location line="+78"/>
        <source>History not read: %1</source>
        <translation>未能读取历史：%1</translation>
    </message>
    <message>
        <location line="-87"/>
        <location line="+91"/>
        <source>hour</source>
        <translation>小时</translation>
    </message>
    <message>
        <location line="-91"/>
        <location line="+75"/>
        <location line="+16"/>
        <source>minute</source>
        <translation>分钟</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>the history file holds nothing yet</source>
        <translation>历史文件中还没有记录</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>before the history file begins (%1)</source>
        <translation>早于历史文件的开始时间（%1）</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>%1 cards recorded</source>
        <translation>已记录 %1 张卡</translation>
    </message>
    <message numerus="yes">
        <location line="+5"/>
        <source>%n alert(s) open</source>
        <translation>
            <numerusform>%n 条告警未解决</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+5"/>
        <source>%n scaling step(s) in the hour before</source>
        <translation>
            <numerusform>前一小时内 %n 个扩缩容步骤</numerusform>
        </translation>
    </message>
    <message>
        <location line="+6"/>
        <source>%1 %2: %3 (%4)</source>
        <translation>%1 %2：%3（%4）</translation>
    </message>
</context>
</TS>
