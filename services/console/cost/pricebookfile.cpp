#include "pricebookfile.h"

#include <fmt/format.h>
#include <yaml-cpp/yaml.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "core/textutil.h"
#include "core/userdirs.h"

namespace meridian {

namespace {

void emitIfSet(YAML::Emitter &out, const char *key, const std::string &value)
{
    if (!value.empty())
        out << YAML::Key << key << YAML::Value << value;
}

}  // namespace

std::string priceBookToYaml(const PriceBook &book)
{
    YAML::Emitter out;
    out << YAML::Comment(
        "Meridian price book: what a card-hour costs, in CNY. A price applies from its\n"
        "`from` on (UTC); add a new entry for a change instead of editing an old one, so\n"
        "past months keep their prices. Contracts of six months or more get 10% off.");
    out << YAML::BeginMap << YAML::Key << "currency" << YAML::Value << "CNY";
    out << YAML::Key << "prices" << YAML::Value << YAML::BeginSeq;
    for (const PriceRule &rule : book.rules()) {
        out << YAML::Flow << YAML::BeginMap;
        emitIfSet(out, "model", rule.model);
        if (rule.vendor != Vendor::Unknown)
            out << YAML::Key << "vendor" << YAML::Value << std::string(vendorName(rule.vendor));
        emitIfSet(out, "data_center", rule.dataCenter);
        out << YAML::Key << "cny_per_card_hour" << YAML::Value << rule.cnyPerCardHour;
        out << YAML::Key << "from" << YAML::Value << formatUtcTime(rule.fromUnixS);
        if (rule.toUnixS)
            out << YAML::Key << "to" << YAML::Value << formatUtcTime(*rule.toUnixS);
        out << YAML::EndMap;
    }
    out << YAML::EndSeq << YAML::Key << "contracts" << YAML::Value << YAML::BeginSeq;
    for (const Contract &c : book.contracts()) {
        out << YAML::Flow << YAML::BeginMap;
        emitIfSet(out, "customer", c.customer);
        emitIfSet(out, "data_center", c.dataCenter);
        emitIfSet(out, "node", c.nodeId);
        emitIfSet(out, "model", c.model);
        out << YAML::Key << "from" << YAML::Value << formatUtcTime(c.fromUnixS);
        out << YAML::Key << "to" << YAML::Value << formatUtcTime(c.toUnixS);
        // Only a discount the term would not give by itself is written down.
        if (c.discountPercent != contractDiscount(c.fromUnixS, c.toUnixS, std::nullopt))
            out << YAML::Key << "discount_percent" << YAML::Value << c.discountPercent;
        out << YAML::EndMap;
    }
    out << YAML::EndSeq;
    if (!book.cardCostsYaml().empty())
        out << YAML::Key << "card_costs" << YAML::Value << YAML::Load(book.cardCostsYaml());
    out << YAML::EndMap;
    return std::string(out.c_str()) + "\n";
}

Status savePriceBook(const std::string &path, const PriceBook &book)
{
    std::error_code ec;
    const auto directory = std::filesystem::path(path).parent_path();
    if (!directory.empty())
        std::filesystem::create_directories(directory, ec);
    const std::string temporary = path + ".new";
    {
        std::ofstream file(temporary, std::ios::trunc);
        file << priceBookToYaml(book);
        file.flush();
        if (!file)
            return Error{fmt::format("{}: cannot write the price book", temporary)};
    }
    if (auto check = PriceBook::load(temporary); !check) {
        std::filesystem::remove(temporary, ec);
        return Error{"the price book was not saved: " + check.error().message};
    }
    if (std::rename(temporary.c_str(), path.c_str()) != 0) {
        std::filesystem::remove(temporary, ec);
        return Error{fmt::format("{}: cannot replace the price book", path)};
    }
    return {};
}

std::string userPriceBookPath()
{
    return userFile(UserDir::Config, "pricebook.yaml");
}

}  // namespace meridian
